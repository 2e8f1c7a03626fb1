"""Classroom activities: the class poll, and a map's numbers out (CSV, TSV)."""

STRINGS = {
    "nav.poll": "Class poll",
    "poll.title": "Class poll",
    "poll.intro": (
        "Answer your teacher's question about an attention map from your own device: type the code on the "
        "teacher's screen, choose, vote. Your teacher reveals the model's own answer at the end."
    ),
    "poll.code": "Poll code",
    "poll.code_help": "{n} letters and digits, as on the teacher's screen",
    "poll.join": "Join",
    "poll.bad_code": "That is not a poll code: a code is {n} letters and digits, as on the teacher's screen.",
    "poll.not_found": (
        "No open poll has this code. Check it on the teacher's screen; a poll closes {hours} hours after it started."
    ),
    "poll.question": "Which source token does **{query}** (row {row} of the map) look at most?",
    "poll.about": "{kind}, {layer}, {head} · sentence: {sentence}",
    "poll.choose": "Your answer",
    "poll.vote": "Vote",
    "poll.voted": "Your vote is in: **{choice}**.",
    "poll.twice": "You have already voted in this poll: one vote each.",
    "poll.no_choice": "Choose one of the tokens first.",
    "poll.refused": "That vote could not be counted: the poll has closed. Ask your teacher for the new code.",
    "poll.wait": "The model's answer appears here when your teacher reveals it.",
    "poll.answer": "The model's answer: **{answer}** (weight {weight}).",
    "poll.agreed": "{agreed} of {votes} votes chose it.",
    "poll.host.code": "Code: {code}",
    "poll.host.join": "Students open **Class poll** on their device and type the code, or open this address:",
    "poll.tally_title": "Votes so far: {n}",
    "poll.axis.options": "source token",
    "poll.axis.votes": "votes",
    "poll.answer_label": "the model's answer",
    "poll.reveal": "Reveal the model's answer",
    "poll.show_tally": "Show the class's tally",
    "poll.ended": "This poll has closed.",
    "poll.start.row": "Poll the class about a row",
    "poll.start.button": "Start a poll",
    "poll.start.help": (
        "Asks the class which source token this row looks at most, in this layer and head; the model's answer is the "
        "row's largest weight. Opens the live tally."
    ),
    "link.why.poll_code": "it is not a poll code",
    "numbers.csv": "Download CSV",
    "numbers.tsv": "Copy as TSV",
    "numbers.tsv_help": (
        "The map's numbers, tab-separated: copy them with the button at the box's top right and paste them into a "
        "spreadsheet."
    ),
}
