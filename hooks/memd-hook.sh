#!/bin/sh
# memd-hook.sh EVENT NODE HOOK_JS [AGENT]: the command-hook shim of Claude Code (the default
# AGENT, claude-code), Codex (codex), Gemini CLI (gemini), Copilot CLI (copilot) and Cursor
# (cursor), whose hooks send like payloads. It posts the hook payload
# on stdin to the daemon's hook route over its Unix socket with curl, which starts in a few
# milliseconds where Node takes fifty, and prints the daemon's answer. Where curl is missing it
# becomes NODE HOOK_JS EVENT AGENT (memd-hook), which does the same. Like memd-hook it fails open:
# whatever goes wrong, it exits 0 with nothing on stdout or stderr and leaves one line in
# MEMD_HOME/logs/hooks.log.
event=$1
# The daemon knows each agent's events (session-start and SessionStart alike) and refuses others;
# the shim only keeps the name one path segment.
case $event in
  '' | *[!A-Za-z-]*) cat >/dev/null; exit 0 ;;
esac
case ${4:-claude-code} in
  claude-code | codex | gemini | copilot | cursor) agent=${4:-claude-code} ;;
  *) cat >/dev/null; exit 0 ;;
esac
if ! command -v curl >/dev/null 2>&1; then
  exec "$2" "$3" "$event" "$agent"
fi
home=${MEMD_HOME:-${HOME}/.memd}
# The same budgets as memd-hook: a prompt waits for its hook, so it gets the least.
case $event in
  user-prompt-submit | UserPromptSubmit | before-agent | BeforeAgent | user-prompt-submitted | userPromptSubmitted) budget=300 ;;
  *) budget=1000 ;;
esac
case ${MEMD_HOOK_TIMEOUT_MS:-} in '' | *[!0-9]*) ;; *) budget=$MEMD_HOOK_TIMEOUT_MS ;; esac
# curl gives up a little early: starting sh and curl and exiting are part of the budget too.
limit=$((budget > 60 ? budget - 30 : budget / 2))
seconds=$((limit / 1000)).$(printf '%03d' $((limit % 1000)))
# The daemon gets most of the budget as its deadline; the rest is for the answer's way back.
answer=$(curl --silent --show-error --max-time "$seconds" --unix-socket "$home/memd.sock" \
  --header 'content-type: application/json' --header "connect-timeout-ms: $((budget * 8 / 10))" \
  --data-binary @- --write-out '\n%{http_code}' "http://localhost/hooks/$agent/$event" 2>&1)
status=$?
code=${answer##*
}
body=${answer%"$code"}
body=${body%?}
if [ "$status" -eq 0 ] && [ "$code" = 200 ]; then
  printf '%s' "$body"
  exit 0
fi
# curl names only "localhost port 80" for a socket it cannot reach: say which socket.
case $status in
  0) reason="daemon call failed: HTTP $code $body" ;;
  7) reason="daemon call failed: memd is not running (nothing answers on $home/memd.sock)" ;;
  28) reason="gave up after the $budget ms budget" ;;
  *) reason="daemon call failed: curl exit $status on $home/memd.sock: $body" ;;
esac
log=$home/logs/hooks.log
mkdir -p "$home/logs" 2>/dev/null && chmod 700 "$home/logs" 2>/dev/null
# Past 1 MiB the log is rotated once, as memd-hook does, so that a broken setup cannot fill the disk.
if [ -f "$log" ] && [ "$(wc -c <"$log")" -gt 1048576 ]; then mv -f "$log" "$log.1" 2>/dev/null; fi
(umask 077 && printf '%s %s %.500s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$event" "$(printf '%s' "$reason" | tr '\n' ' ')" >>"$log") 2>/dev/null
exit 0
