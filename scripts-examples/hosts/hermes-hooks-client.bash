#!/bin/bash
# hermes-hooks-client.bash AGENT EVENT [SOCKET [--gate 1|0] [OPTION VALUE]…] — hermes-hooks-client (the perl one beside it) for a
# machine without perl: the same calls, checks, start-up and messages, with bash and one curl per call
# (~16 ms a call: curl's own start is ~10 ms; the perl client's is ~2 ms). The rationale of each step
# is in hermes-hooks-client's comments; this file keeps only what is particular to bash and curl.

# began: the client's start in µs, for the deadline; started (below): whether this call started serve.
SECONDS=0 began=${EPOCHREALTIME/[.,]/}
# curl, stat, setsid…: the system's after the agent's PATH, which may be bare.
PATH=${PATH:+$PATH:}/usr/bin:/bin
agent=$1
event=$2
# Options after AGENT EVENT SOCKET stand for variables (as in hermes-hooks-client); --gate 1|0 says
# whether EVENT is a tool gate (print-config writes it from the agent's record). Without it every
# event is one: the client keeps no list of agents' gates, so it fails closed.
# The SOCKET word may be left out (print-config's short form: AGENT EVENT --gate 1 --home H).
bad_option= sock_arg=${3:-} gate=1
if [[ $sock_arg == --* ]]; then
  sock_arg= && set -- "${@:3}"
else
  set -- "${@:4}"
fi
while (($# > 0)); do
  case $1 in
    --gate)
      case ${2-} in 1) gate=1 ;; 0) gate= ;; *) bad_option=$1 && break ;; esac
      shift 2 && continue ;;
    --home) var=HERMES_HOME ;;
    --socket) var=HERMES_HOOKS_SOCKET ;;
    --node) var=HERMES_HOOKS_NODE ;;
    --bin) var=HERMES_HOOKS_BIN ;;
    --agent-env) var=HERMES_HOOKS_AGENT_ENV ;;
    --serve-args) var=HERMES_HOOKS_SERVE_ARGS ;;
    *) var= ;;
  esac
  if [ -z "$var" ] || (($# < 2)); then bad_option=$1 && break; fi
  export "$var=$2"
  shift 2
done
home=${HERMES_HOME:-$HOME/.hermes}

# print-config's per-profile settings (as in hermes-hooks-client): <home>/hermes-hooks-client.env,
# read only when it is yours (or root's) and no other user can write it; a given value wins.
env_file=$home/hermes-hooks-client.env env_file_bad=
# One line per path: owner (uid), permission bits (octal), the path; a symlink is not followed.
# GNU stat, else BSD's. One process for all of them: this runs on every tool call.
if stat -c %u / >/dev/null 2>&1; then
  owner_mode() { stat -c '%u %a %n' -- "$@" 2>/dev/null; }
else
  owner_mode() { stat -f '%u %Mp%Lp %N' -- "$@" 2>/dev/null; }
fi

me=$(id -u)

client_env_file() {
  local uid mode name value
  [ -e "$env_file" ] || [ -L "$env_file" ] || return 0
  [ -f "$env_file" ] && [ ! -L "$env_file" ] || { env_file_bad="$env_file is not a plain file"; return; }
  read -r uid mode _ <<<"$(owner_mode "$env_file")"
  [ "$uid" = "$me" ] || [ "$uid" = 0 ] || { env_file_bad="$env_file belongs to uid $uid, not to you"; return; }
  ((8#$mode & 8#022)) && { env_file_bad="$env_file is writable by other users (mode $mode); run: chmod go-w $env_file"; return; }
  # As the perl client reads it: a CRLF line's \r dropped, a last line without a newline kept.
  while IFS='=' read -r name value || [ -n "$name" ]; do
    value=${value%$'\r'}
    [[ $name =~ ^HERMES_HOOKS_(NODE|BIN|AGENT_ENV_[A-Za-z0-9_]+)$ ]] || continue
    [ -n "${!name:-}" ] || export "$name=$value"
  done <"$env_file"
  name=HERMES_HOOKS_AGENT_ENV_$agent
  [[ $name =~ ^[A-Za-z0-9_]+$ ]] || return 0
  [ -n "${HERMES_HOOKS_AGENT_ENV:-}" ] || [ -z "${!name:-}" ] || export "HERMES_HOOKS_AGENT_ENV=${!name}"
}
client_env_file

# serve's default socket for $home (as in hermes-hooks-client): the first socket directory that does
# not exist or is ours; the others go into $skipped. Sets $sock ('' when none); forks only for a long home.
skipped=
default_socket() {
  local LC_ALL=C real sum dir dirs=() n uid mode why
  sock=$home/hermes-hooks.sock
  [ "${#sock}" -le 100 ] && return
  real=$(cd -P -- "$home" 2>/dev/null && pwd -P) || real=$home
  if command -v sha256sum >/dev/null 2>&1; then
    sum=$(printf '%s' "$real" | sha256sum)
  else
    sum=$(printf '%s' "$real" | shasum -a 256) # macOS
  fi
  [[ ${XDG_RUNTIME_DIR:-} == /* ]] && dirs+=("$XDG_RUNTIME_DIR/hermes-hooks")
  dirs+=("/tmp/hermes-hooks-$me")
  [[ ${HOME:-} == /* ]] && dirs+=("$HOME/.cache/hermes-hooks")
  for n in 1 2 3 4; do dirs+=("/tmp/hermes-hooks-$me-$n"); done
  for dir in "${dirs[@]}"; do
    sock=$dir/${sum:0:16}.sock
    if [ "${#sock}" -gt 100 ]; then
      why="$dir would make the socket path over 100 bytes"
    elif [ ! -e "$dir" ] && [ ! -L "$dir" ]; then
      return
    elif [ -L "$dir" ] || [ ! -d "$dir" ]; then
      why="$dir is not a directory"
    else
      read -r uid mode _ <<<"$(owner_mode "$dir")"
      if [ "$uid" != "$me" ]; then
        why="$dir belongs to uid $uid, not to you"
      elif [[ ! $mode =~ ^[0-7]+$ ]] || ((8#$mode & 8#022)); then
        why="$dir is writable by other users (mode $mode)"
      else
        return
      fi
    fi
    skipped=${skipped:+$skipped; }$why
  done
  sock=
}

# The socket, and how to start the server this client looks for (as words, and as serve's arguments).
sock=${sock_arg:-${HERMES_HOOKS_SOCKET:-}}
start='hermes-hooks serve'
[ "$home" = "$HOME/.hermes" ] || start="$start --home $home" # the start line names a home that is not the default
if [ -z "$sock" ]; then
  default_socket
  serve_args=(--home "$home")
else
  case $sock in
    "$home/hermes-hooks.sock") serve_args=(--home "$home") ;;
    */hermes-hooks.sock) start="hermes-hooks serve --home ${sock%/hermes-hooks.sock}" serve_args=(--home "${sock%/hermes-hooks.sock}") ;;
    *) start="$start --socket $sock" serve_args=(--home "$home") ;;
  esac
fi

fail() {
  local why=$1
  [ -n "$skipped" ] && [[ $why != *"$skipped"* ]] && why="$why (socket directories skipped: $skipped)"
  set -- "$why"
  if [ -n "$gate" ] || [ -z "$event" ]; then
    printf 'hermes-hooks-client: %s; blocking this call (exit 2) rather than letting it through unguarded\n' "$1" >&2
    exit 2
  fi
  printf 'hermes-hooks-client: %s; %s is not a tool gate, so the agent goes on without hermes-hooks (exit 1, a non-blocking error)\n' "$1" "$event" >&2
  exit 1
}

[ -n "$agent" ] && [ -n "$event" ] || fail "usage: hermes-hooks-client AGENT EVENT [SOCKET [--gate 1|0] [OPTION VALUE]...]"
[ -z "$bad_option" ] || fail "unknown option or one without its value: $bad_option (options after AGENT EVENT SOCKET: --gate, --agent-env, --bin, --home, --node, --serve-args, --socket VALUE)"
[ -z "$env_file_bad" ] || fail "the client's settings cannot be used: $env_file_bad"
command -v curl >/dev/null 2>&1 || fail "curl is not installed"
[ -n "$sock" ] || fail "no private directory for the socket of $home: $skipped; remove the ones another user made,\
 or start serve with --socket PATH in a directory of yours and pass that path to the client"

# Start on first use (as in hermes-hooks-client). The call's input is kept (one `cat`) so it can be
# sent after a start.
autostart=1 started= why=
[ "${HERMES_HOOKS_AUTOSTART:-1}" = 0 ] && autostart=
if [ -n "$autostart" ]; then
  input=$(cat; printf .)
  input=${input%.}
fi

# Does something accept connections on HOST:PORT (127.0.0.1:8765, [::1]:8765)? bash's /dev/tcp.
port_taken() {
  local host=${1%:*} port=${1##*:}
  host=${host#[} && host=${host%]}
  (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null
}

start_serve() {
  local bin=${HERMES_HOOKS_BIN:-hermes-hooks} lock=$sock.starting log=/dev/null pid tries=0
  local most=$((${HERMES_HOOKS_START_WAIT:-15} * 20)) # polls 50 ms apart
  started=1
  command -v "$bin" >/dev/null 2>&1 || { why="$bin is not installed (or not on PATH)"; return 1; }
  # HERMES_HOOKS_NODE: the node that runs $bin (as in hermes-hooks-client).
  local node=()
  if [ -n "${HERMES_HOOKS_NODE:-}" ]; then
    [ -x "$HERMES_HOOKS_NODE" ] || { why="$HERMES_HOOKS_NODE (HERMES_HOOKS_NODE) is not there: node was moved or removed; print the agent's config again"; return 1; }
    node=("$HERMES_HOOKS_NODE")
  fi
  mkdir -p -m 700 -- "${sock%/*}" 2>/dev/null # the socket's directory: the lock lives there
  if ! mkdir -- "$lock" 2>/dev/null; then
    # Another client is starting it: wait for it to finish, then use its socket.
    while [ -d "$lock" ]; do
      ((tries++ < most)) || { rmdir -- "$lock" 2>/dev/null; why="another client was starting hermes-hooks serve and it did not come up"; return 1; }
      sleep 0.05
    done
    [ -S "$sock" ] || { why="another client's start of hermes-hooks serve failed"; return 1; }
    return 0
  fi
  [ "$1" = stale ] && rm -f -- "$sock" # we were refused there, and we hold the lock
  if [ ! -S "$sock" ]; then
    [ -d "$home" ] && [ -w "$home" ] && log=$home/hermes-hooks-serve.log
    local detach=setsid
    command -v setsid >/dev/null 2>&1 || detach=nohup # macOS
    # HERMES_HOOKS_SERVE_ARGS: more serve options, as words (print-config adds --http for Claude Code's http hooks).
    # shellcheck disable=SC2086
    # --socket always: with --http (below) serve would otherwise not listen on the socket we wait for.
    # An http serve already up holds the port: this one is then socket-only beside it (as in hermes-hooks-client).
    local more=(${HERMES_HOOKS_SERVE_ARGS:-}) i
    for ((i = 0; i + 1 < ${#more[@]}; i++)); do
      [ "${more[i]}" = --http ] && port_taken "${more[i + 1]}" && more=("${more[@]:0:i}" "${more[@]:i+2}") && break
    done
    # In a subshell that first closes every descriptor above 2 it inherited (as in hermes-hooks-client).
    (
      for fd in /dev/fd/*; do
        fd=${fd##*/}
        [[ $fd =~ ^[0-9]+$ ]] && ((fd > 2)) && eval "exec $fd>&-" 2>/dev/null
      done
      exec "$detach" "${node[@]}" "$bin" serve "${serve_args[@]}" --socket "$sock" "${more[@]}" --idle-exit "${HERMES_HOOKS_IDLE_EXIT:-900}" </dev/null >>"$log" 2>&1
    ) &
    pid=$!
    while [ ! -S "$sock" ]; do
      kill -0 "$pid" 2>/dev/null || { rmdir -- "$lock"; why="hermes-hooks serve stopped at once (its output: $log)"; return 1; }
      ((tries++ < most)) || { rmdir -- "$lock"; why="hermes-hooks serve did not listen within ${HERMES_HOOKS_START_WAIT:-15}s (its output: $log)"; return 1; }
      sleep 0.05
    done
  fi
  rmdir -- "$lock"
}

you="you (uid $me)"
[ "$me" = 0 ] || you="$you or root"

# Is $sock yours, a socket, in directories no other user can swap it in? fail() when not.
check_socket() {
  if [ -L "$sock" ]; then
    fail "$sock is a symbolic link; point the client at the socket itself (serve's --socket path)"
  elif [ ! -e "$sock" ]; then
    fail "no hermes-hooks serve is running for $sock (there is no socket there)${why:+ and starting one failed: $why}; start it with: $start"
  elif [ ! -S "$sock" ]; then
    fail "$sock is not a socket, so it is not hermes-hooks serve; move it away, then start the server with: $start"
  fi
  # The directory as it is on disk, checked and connected through (as in hermes-hooks-client).
  dir=.
  [[ $sock == */* ]] && dir=${sock%/*}
  dir=$(cd -P -- "${dir:-/}" 2>/dev/null && pwd -P) ||
    fail "cannot enter the directory of $sock; start the server with: $start"
  sock=${dir%/}/${sock##*/}
  # The socket, its directory and every directory above it, in one stat: owner, then mode.
  paths=("$sock" "$dir")
  p=$dir
  while [ "$p" != / ]; do
    p=${p%/*}
    p=${p:-/}
    paths+=("$p")
  done
  rows=() # (no mapfile: macOS ships bash 3.2)
  while IFS= read -r row; do rows+=("$row"); done < <(owner_mode "${paths[@]}")
  [ "${#rows[@]}" = "${#paths[@]}" ] || fail "cannot read the owner of $sock or of the directories above it"
  for ((i = 0; i < ${#rows[@]}; i++)); do
    read -r uid mode _ <<<"${rows[i]}"
    path=${paths[i]}
    if ((i == 0)); then
      [ "$uid" = "$me" ] || [ "$uid" = 0 ] ||
        fail "$sock belongs to user $uid, not to $you: it is not your hermes-hooks serve, so the call is not sent there; remove it (or ask its owner to), then start yours with: $start"
    else
      what="the socket's directory $path"
      ((i == 1)) || what="$path, a directory above the socket,"
      [ "$uid" = "$me" ] || [ "$uid" = 0 ] ||
        fail "$what belongs to user $uid, who could swap the socket for another; keep the socket in a directory of yours (serve --socket PATH)"
      # Writable by others is fine only when sticky (such as /tmp): there only an entry's owner can replace it.
      if [[ $mode =~ ^[0-7]+$ ]] && (((8#$mode & 8#022) && !(8#$mode & 8#1000))); then
        fail "$what is writable by other users (mode $mode), who could swap the socket for another; run: chmod go-w $path"
      fi
    fi
  done
}
# The agent's hook env the answer depends on, named in HERMES_HOOKS_AGENT_ENV (as in
# hermes-hooks-client): values that need no URL-encoding are forwarded, others left out.
agent_env=() pairs=
for name in ${HERMES_HOOKS_AGENT_ENV:-}; do
  [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ && -n ${!name+set} && ${!name} =~ ^[A-Za-z0-9._~-]*$ ]] && pairs+=${pairs:+&}$name=${!name}
done
[ -n "$pairs" ] && agent_env=(-H "X-Hermes-Hooks-Agent-Env: $pairs")
# OpenTelemetry: the agent's W3C trace context, as hermes-hooks-client forwards it (well-formed values only).
if [[ ${TRACEPARENT:-} =~ ^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$ ]]; then
  agent_env+=(-H "traceparent: $TRACEPARENT")
  [[ ${TRACESTATE:-} =~ ^[\ -~]{1,512}$ ]] && agent_env+=(-H "tracestate: $TRACESTATE")
fi
# The deadline, counted from the client's start (as in hermes-hooks-client).
send() {
  local left=${HERMES_HOOKS_TIMEOUT:-310} ms frac
  # To the millisecond (bash 5's EPOCHREALTIME): SECONDS ticks at the wall clock's whole seconds, so
  # subtracting it gave up to a second early (a 5 s deadline waited 4.1 s). Without it, the whole
  # seconds surely gone (SECONDS - 1), so the deadline is never cut short.
  if [[ $left =~ ^[0-9]+$ && $began =~ ^[0-9]+$ && ${EPOCHREALTIME/[.,]/} =~ ^[0-9]+$ ]]; then
    ms=$((left * 1000 - (${EPOCHREALTIME/[.,]/} - began) / 1000))
    ((ms < 1000)) && ms=1000
    printf -v frac '%03d' $((ms % 1000))
    left=$((ms / 1000)).$frac
  elif [[ $left =~ ^[0-9]+$ ]] && ((SECONDS > 1)); then
    left=$((left > SECONDS - 1 ? left - SECONDS + 1 : 1))
  fi
  # Signs of life asked for (as in hermes-hooks-client): curl gives up on 2 s under 1 byte/s, and
  # a live serve whose hooks take their time sends a byte every 0.5 s.
  local args=(-sS -i --max-time "$left" --speed-limit 1 --speed-time 2 --unix-socket "$sock" "${agent_env[@]}"
    -H 'X-Hermes-Hooks-Heartbeat: 1' -H 'content-type: application/json' -H 'Expect:' --data-binary @- "http://localhost/v1/agent/$agent/$event")
  if [ -n "$autostart" ]; then
    resp=$(curl "${args[@]}" 2>&1 <<<"$input" && printf .)
  else
    resp=$(curl "${args[@]}" 2>&1 && printf .)
  fi
}

# The mark of a frozen serve (as in hermes-hooks-client).
unanswered=$sock.unanswered
now() { echo "${EPOCHSECONDS:-$(date +%s)}"; }
recently_unanswered() {
  local at=
  [ -f "$unanswered" ] && read -r at <"$unanswered" 2>/dev/null
  # (A serve started since removes the mark when it listens: it gets its chance.)
  [[ $at =~ ^[0-9]+$ ]] && (($(now) - at < ${HERMES_HOOKS_RETRY_AFTER:-60}))
}

if [ -n "$autostart" ] && [ ! -e "$sock" ] && [ ! -L "$sock" ]; then start_serve; fi
check_socket
if recently_unanswered; then
  fail "hermes-hooks serve on $sock did not answer a moment ago, so this call does not wait again (for ${HERMES_HOOKS_RETRY_AFTER:-60}s, HERMES_HOOKS_RETRY_AFTER); restart it (kill it, the next call starts one) or see its stderr"
fi
# The serve this call started has its socket file from bind() an instant before listen(): a refusal
# then is that instant (or a slow machine), not a dead serve; ask again for up to a second.
send_while_starting() {
  local i
  for ((i = 0; rc == 7 && i < 20; i++)); do
    [ -n "$started" ] && [ -z "$why" ] && [ -S "$sock" ] || return 0
    sleep 0.05
    send
    rc=$?
  done
}
send
rc=$?
send_while_starting
if ((rc == 7)) && [ -n "$autostart" ] && [ -z "$started" ]; then
  # A socket left by a serve that is gone (killed, crashed): start one and send the call again.
  if start_serve stale; then
    check_socket
    send
    rc=$?
    send_while_starting
  fi
fi
# curl's own words name "localhost port 80", the URL it was given, not the socket: say it ourselves.
case $rc in
  0) ;;
  7) fail "nothing answers on $sock (connection refused: the server that made it has stopped)${why:+ and starting one failed: $why}; start it with: $start" ;;
  28)
    (umask 077 && now >"$unanswered") 2>/dev/null
    # curl's words tell the silence (--speed-time) from the deadline (--max-time).
    [[ $resp == *'Operation too slow'* ]] &&
      fail "hermes-hooks serve on $sock is not answering (no sign of life for 2s): it is frozen or wedged"
    fail "hermes-hooks serve on $sock did not answer within ${HERMES_HOOKS_TIMEOUT:-310}s (HERMES_HOOKS_TIMEOUT)"
    ;;
  52 | 55 | 56) fail "hermes-hooks serve on $sock closed the connection without an answer (shutting down, or shedding load: its stderr says which)" ;;
  *) fail "cannot talk to hermes-hooks serve on $sock (curl exit $rc: ${resp##*curl: })" ;;
esac
[ -e "$unanswered" ] && rm -f -- "$unanswered" # it answers again
resp=${resp%.} # the dot kept the answer's trailing newlines from $(…)
# No `Expect: 100-continue` is sent (curl adds it to bodies over 1 MiB), but should an interim 1xx
# answer come anyway, -i prints it before the real one: skip it.
while [[ $resp == HTTP/1.1\ 1[0-9][0-9]\ * ]]; do resp=${resp#*$'\r\n\r\n'}; done

head=${resp%%$'\r\n\r\n'*}
body=${resp#*$'\r\n\r\n'}
status=${head#HTTP/1.1 }
status=${status%% *}
code=
err=
beats=0
# A slow answer's headers come as trailers (heartbeat.ts), which curl prints after the body,
# x-hermes-hooks-beats first: the last one is theirs (the body's own text cannot end the answer).
if [[ $head == *$'\r\n'[Tt]railer:* && $body == *x-hermes-hooks-beats:* ]]; then
  head+=$'\r\n'x-hermes-hooks-beats:${body##*x-hermes-hooks-beats:}
  body=${body%x-hermes-hooks-beats:*}
fi
while IFS= read -r line; do
  line=${line%$'\r'}
  case $line in
    x-hermes-hooks-exit:*) code=${line#*: } ;;
    x-hermes-hooks-stderr:*) err=${line#*: } ;;
    x-hermes-hooks-status:*) status=${line#*: } ;; # an error found late
    x-hermes-hooks-beats:*) beats=${line#*: } ;;
  esac
done <<<"$head"
# The leading liveness bytes (spaces), counted as bytes.
unbeat() { local LC_ALL=C; body=${body:beats}; }
[[ $beats =~ ^[0-9]+$ ]] && ((beats > 0)) && unbeat
[ "$status" = 200 ] && [ -n "$code" ] || fail "hermes-hooks serve answered HTTP $status: $body"

printf '%s' "$body"
if [ -n "$err" ]; then
  printf '%b' "${err//%/\\x}" >&2
  case $err in *%0A) ;; *) printf '\n' >&2 ;; esac
fi
exit "$code"
