#!/usr/bin/env bash
# Record one ladder model over one world's public set, in parts, and join the parts into
# cassettes/<world>/<model-slug>/ (docs/local-models.md, "The ladder").
#
#   bash docs/record-ladder.sh RUNG WORLD [TASKS_PER_PART]
#
# RUNG is a ladder slug (smollm2-135m-fenced, qwen-coder-0.5b-fenced, qwen-coder-0.5b-bare, qwen-coder-1.5b-fenced); WORLD a world's
# name. The weights are read from $LLM (default /opt/llm, where docs/local-models.md puts
# them) and checked by sha256; the server is started once, by `local-model serve`, with the
# rung's adapted chat template, greedy and seeded, one CPU thread and $SLOTS slots (default
# 4, as many samples in flight). A part that fails is said and left out: the joined run then
# covers the parts that finished, and `replay` and the board mark it partial. Parts go under
# $PARTS (default $LLM/parts); a part already recorded there (its run.json written) is kept,
# not played again, so a run stopped half way goes on where it stopped; a part stopped half
# way is played again from its start. MAX_PARTS=N records only the first N parts
# (the rest of the public set is left for later; the joined run is partial).
# TEMP, SEED and EPOCHS change the sampling (default greedy, seed 0, one epoch): the noise
# floor is TEMP=0.8 SEED=-1 (a fresh seed each request) EPOCHS=4; such a run's model name
# gets SUFFIX (e.g. -t0.8) so it never shares a cassette or a row with the greedy run.
# THREADS sets the server's CPU threads (default 1, leaving a core to Inspect and the grader).
# FIRST=K starts at the K-th public task (0-based), for a run that already covers the first
# K: a committed cassettes/<world>/<model-slug>/ is then kept as a part and joined with the
# new parts (`cassettes merge` refuses parts recorded under other settings or that overlap).
# Until the join, the committed run lives in $PARTS/<world>/<slug>/committed: a run stopped
# before it leaves it there (move it back by hand).
set -euo pipefail
RUNG=${1:?usage: bash docs/record-ladder.sh RUNG WORLD [TASKS_PER_PART]}
WORLD=${2:?usage: bash docs/record-ladder.sh RUNG WORLD [TASKS_PER_PART]}
PER=${3:-10}
LLM=${LLM:-/opt/llm}
PARTS=${PARTS:-$LLM/parts}
PORT=${PORT:-8081}
SLOTS=${SLOTS:-4}
TEMP=${TEMP:-0}
SEED=${SEED:-0}
EPOCHS=${EPOCHS:-1}
THREADS=${THREADS:-1}
FIRST=${FIRST:-0}
case "$RUNG" in
  smollm2-135m-fenced) FILE=smollm2-135m-instruct-q4_1.gguf CTX=8192
    SHA=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53 ;;
  qwen-coder-0.5b-fenced|qwen-coder-0.5b-bare) FILE=qwen2.5-coder-0.5b-instruct-q4_k_m.gguf CTX=32768
    SHA=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32 ;;
  qwen-coder-1.5b-fenced) FILE=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf CTX=32768
    SHA=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046 ;;
  *) echo "record-ladder: no rung $RUNG (smollm2-135m-fenced, qwen-coder-0.5b-fenced, qwen-coder-0.5b-bare, qwen-coder-1.5b-fenced)" >&2
     exit 2 ;;
esac
read -r MODEL TEMPLATE KEY TASKS < <(python -m checkout_consent.cli.ladder parts "$RUNG" "$WORLD")
MODEL=$MODEL${SUFFIX:-}
SLUG=${MODEL//\//--}
OUT=cassettes/$WORLD/$SLUG
ROOT=$PARTS/$WORLD/$SLUG
mkdir -p "$ROOT"
kept=()
if [ -e "$OUT" ]; then
  [ "$FIRST" -gt 0 ] || { echo "record-ladder: $OUT exists; move it away first, or FIRST=K to add to it" >&2; exit 2; }
  [ -e "$ROOT/committed" ] && { echo "record-ladder: $ROOT/committed exists; move it away first" >&2; exit 2; }
  mv "$OUT" "$ROOT/committed" && kept=("$ROOT/committed")
  echo "record-ladder: $OUT kept as a part ($ROOT/committed)"
fi
IFS=, read -r -a ALL <<< "$TASKS"
ALL=("${ALL[@]:FIRST}")
part_args=()
for ((i = 0; i < ${#ALL[@]}; i += PER)); do
  chunk=("${ALL[@]:i:PER}")
  part_args+=("$(IFS=,; echo "${chunk[*]}")")
done
part_args=("${part_args[@]:0:${MAX_PARTS:-${#part_args[@]}}}")
parts_script=$(mktemp)
{
  echo "set -u; ok=(${kept[*]:-})"
  n=0
  for p in "${part_args[@]}"; do
    n=$((n + 1))
    dir=$ROOT/part-$n
    echo "if [ -f $dir/$WORLD/$SLUG/run.json ]; then ok+=($dir/$WORLD/$SLUG); else"
    echo "  rm -rf $dir  # a part stopped half way is played again from its start"
    echo "  echo \"record-ladder: $WORLD part $n of ${#part_args[@]} ($KEY=$p) at \$(date -u +%H:%M)\""
    echo "  if checkout-consent run $WORLD --model $MODEL --model-base-url \$LLAMA_BASE_URL \\"
    echo "      -T $KEY=$p --cassette record --cassette-root $dir --max-connections $SLOTS --epochs $EPOCHS \\"
    echo "      --max-retries 2 --timeout 1800 --log-dir $ROOT/logs > $ROOT/part-$n.out 2>&1; then"
    echo "    ok+=($dir/$WORLD/$SLUG); else echo \"record-ladder: part $n failed: \$(tail -1 $ROOT/part-$n.out)\"; fi"
    echo "fi"
  done
  echo 'if [ ${#ok[@]} -eq 0 ]; then echo "record-ladder: no part finished"; exit 1; fi'
  echo "if [ \${#ok[@]} -eq 1 ]; then mkdir -p $(dirname "$OUT") && cp -r \"\${ok[0]}\" $OUT;"
  echo "elif ! checkout-consent cassettes merge \"\${ok[@]}\" --out $OUT; then"
  echo "  echo \"record-ladder: the parts could not be joined (they are kept under $ROOT)\"; exit 1; fi"
  echo "echo \"record-ladder: \${#ok[@]} of ${#part_args[@]} part(s) joined into $OUT\""
} > "$parts_script"
checkout-consent local-model serve --server "$LLM/build/bin/llama-server" \
  --weights "$LLM/$FILE" --sha256 "$SHA" --template "$TEMPLATE" --ctx $((CTX * SLOTS)) --threads "$THREADS" \
  --parallel "$SLOTS" --temp "$TEMP" --seed "$SEED" --n-predict 1024 --port "$PORT" \
  --server-log "$ROOT/llama-server.log" -- bash "$parts_script"
