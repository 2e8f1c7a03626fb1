"""The live lab's queue (app_pages/state/lab_queue.py): runs train in arrival order, at most `runs` at once; a closed
tab's ticket is dropped; a waiting run is told about how long until its turn. On a made-up clock, without
Streamlit; the page's queue across two sessions: tests/test_app_replay.py."""

from __future__ import annotations

from app_pages.state.lab_queue import LabQueue


def test_the_lab_queue_keeps_order_limits_runs_and_drops_a_closed_tab():
    now = [0.0]
    queue = LabQueue(runs=1, stale_s=15, clock=lambda: now[0])
    a, b, c = queue.join(), queue.join(), queue.join()
    assert [queue.place(x) for x in (a, b, c)] == [0, 1, 2]
    assert queue.place(a) == 0 and queue.place(b) == 1  # one run at a time: a trains, b waits
    queue.leave(a)
    assert queue.place(b) == 0 and queue.place(c) == 1
    now[0] = 10.0
    queue.place(c)  # c's page is still open; b's tab was closed and asks no more
    now[0] = 26.0
    assert queue.place(c) == 0 and queue.place(b) is None and len(queue) == 1


def test_a_waiting_lab_run_is_told_about_how_long_until_its_turn():
    """Before any run has ended each takes the cap; then the mean of those that ran. The run computing now counts
    only what it has left; with two slots the queue drains two at a time."""
    now = [0.0]
    queue = LabQueue(runs=1, stale_s=1000, clock=lambda: now[0])
    a, b, c = queue.join(), queue.join(), queue.join()
    assert queue.place(a) == 0  # its run starts now
    now[0] = 5.0
    assert queue.wait(a, 20) == 0 and queue.wait(b, 20) == 15 and queue.wait(c, 20) == 35
    now[0] = 12.0
    queue.leave(a)  # it ran 12 s: the next estimates use 12
    assert queue.place(b) == 0 and queue.wait(c, 20) == 12
    now[0] = 20.0
    assert queue.wait(c, 20) == 4 and queue.wait("gone", 20) is None
    queue.leave(c)  # cancelled before it ran: not a run's length
    queue.leave(b)
    d, e = queue.join(), queue.join()
    assert queue.wait(e, 20) == 10  # d will take the mean of the two runs, 12 s and 8 s
    two = LabQueue(runs=2, stale_s=1000, clock=lambda: now[0])
    tickets = [two.join() for _ in range(5)]
    assert [two.wait(t, 10) for t in tickets] == [0, 0, 10, 10, 20]
