#!/usr/bin/env bash
# Runs `swift test ARGS...` with a deadline, its output line by line into LOG as well as to the terminal:
#   scripts/swift-test-bounded.sh LOG SECONDS ARGS...
# A test that hangs fails the run by name instead of holding CI until CI's own limit: past SECONDS, every process
# of the run is killed (the test process that swift test starts in a process group of its own, and whatever the
# tests started) and the tests that started and never finished are listed. Line buffering (stdbuf) keeps the log
# current, so a run that is killed still shows how far it got.
set -uo pipefail
log=$1
limit=$2
shift 2
: >"$log"
# A session of its own: swift test, its test process and their children are all in it, and nothing else is.
setsid stdbuf -oL -eL swift test "$@" >"$log" 2>&1 </dev/null &
pid=$!
# setsid makes the session without a fork here (a job of a script is no process-group leader), so the session's id
# is the job's pid; were it otherwise, the deadline could not stop the run's processes: say so and stop.
sleep 0.2
if [ "$(ps -o sid= -p "$pid" | tr -d ' ')" != "$pid" ] && kill -0 "$pid" 2>/dev/null; then
  echo "error: swift test did not start in a session of its own; run this script as a script (bash $0 ...)" >&2
  kill "$pid"
  exit 2
fi
tail -n +1 -f --pid="$pid" "$log" &
shown=$!
timed_out=0
deadline=$((SECONDS + limit))
while kill -0 "$pid" 2>/dev/null; do
  if ((SECONDS >= deadline)); then
    timed_out=1
    pkill -KILL -s "$pid"
    break
  fi
  sleep 1
done
wait "$pid"
status=$?
wait "$shown"
if ((timed_out)); then
  {
    echo "error: the tests were still running after $limit s and were stopped. Started and not finished:"
    awk '
      /^◇ Test .* started\.$/ && !/^◇ Test (case|run) / {
        name = $0; sub(/^◇ Test /, "", name); sub(/ started\.$/, "", name); open[name]++
      }
      /^(✔|✘) Test .* (passed|failed) after / {
        name = $0; sub(/^(✔|✘) Test /, "", name)
        sub(/ (with [0-9]+ test cases? )?(passed|failed) after .*$/, "", name); open[name]--
      }
      END { for (name in open) if (open[name] > 0) print "  " name }
    ' "$log"
    echo "(a test waiting for something that never comes: give its wait a deadline; the whole log: $log)"
  } >&2
  exit 124
fi
exit "$status"
