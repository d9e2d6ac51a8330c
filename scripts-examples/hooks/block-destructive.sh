#!/usr/bin/env bash
# block-destructive.sh — Hermes `pre_tool_call` hook (matcher: terminal).
#
# Blocks the handful of terminal commands that cannot be undone:
#   - recursive rm of /, /*, a top-level system directory, or the home directory
#     (`rm -rf /`, `rm -fr /*`, `sudo rm -rf --no-preserve-root /`, `rm -rf ~`, `rm -rf "$HOME"`)
#   - force pushes (`--force`, `-f`, `--force-with-lease`, `+ref`) to main/master, including a
#     bare `git push -f` while main/master is checked out in the payload's cwd; `--mirror`
#   - mkfs, `dd of=/dev/sdX` (and other whole-disk devices), `> /dev/sdX`
#   - fork bombs
# On a match it prints {"action":"block","message":"…why…"} and exits 0.
# Everything else: exit 0 with empty stdout.
#
# It cannot judge a command when jq is missing or stdin is not a JSON object: it says so on
# stderr and exits 1 — a warning when the hook fails open, a block with `fail_closed: true`.
# Empty stdin means there is no tool call to judge: exit 0.
#
# Needs: bash 4+, jq.
set -uo pipefail
shopt -u patsub_replacement 2>/dev/null || true # bash 5.2: keep '&' and '\' literal in ${x//a/b}

readonly SELF=block-destructive

# Top-level directories whose recursive removal breaks the machine.
readonly CRITICAL_DIRS=" /bin /boot /dev /etc /home /lib /lib32 /lib64 /opt /proc /root /sbin /srv /sys /usr /var "
# Disk devices (`dd of=…`, `> …`). Partitions (sda1) match too: raw bytes over one are just as final.
readonly DISK_RE='^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme[0-9]|mmcblk[0-9]|disk[0-9]|md[0-9]|dm-[0-9]|mapper/)'

block() {
  jq -cn --arg m "$SELF: $1" '{action: "block", message: $m}'
  exit 0
}

# --- read the payload -------------------------------------------------------------------------
if ! command -v jq >/dev/null 2>&1; then
  echo "$SELF: jq is not installed, so the command cannot be checked" >&2
  exit 1
fi

payload=$(cat)
[[ $payload =~ ^[[:space:]]*$ ]] && exit 0 # nothing to judge

# -s: the whole stdin must be exactly one JSON object (two objects or trailing garbage = invalid).
if ! fields=$(jq -sr '
    if length == 1 and (.[0] | type) == "object" then .[0] else error("not one JSON object") end
    | [ (if (.tool_input | type) == "object" and (.tool_input.command | type) == "string"
           then .tool_input.command else "" end),
        (if (.cwd | type) == "string" then .cwd else "" end) ]
    | @json' <<<"$payload" 2>/dev/null); then
  echo "$SELF: stdin is not a JSON object, so the command cannot be checked" >&2
  exit 1
fi
command=$(jq -r '.[0]' <<<"$fields")
cwd=$(jq -r '.[1]' <<<"$fields")
[[ -z $command ]] && exit 0
# Bytes, not characters, from here on: every pattern below is ASCII, and in a UTF-8 locale bash's
# string operations get slow on long commands.
export LC_ALL=C

# The checks below loop over words in bash and substitute with ${x//…}, which costs per match: far
# too slow on a long command. One over MAX_BYTES is first looked at with tr and grep (linear): the
# whole-command checks run there, and only its simple commands that name rm, dd, mkfs or git (quotes
# dropped, as below) go on to the per-command checks. If those alone are still over MAX_BYTES, the
# command is blocked unchecked, saying why (a timeout would block it too, 10 s later).
readonly MAX_BYTES=16384
reduce_long_command() {
  local squashed name reduced
  squashed=$(tr -d '[:space:]' <<<"$command")
  if grep -qF -e ':(){:|:&};:' -e 'forkwhilefork' <<<"$squashed"; then
    block "fork bomb — it would exhaust the process table and hang the machine."
  fi
  # The first few names defined, looked for in one grep pass (which one, only once one is found).
  local -a names=() patterns=()
  mapfile -t names < <(grep -oE '[A-Za-z_][A-Za-z0-9_]*\(\)\{' <<<"$squashed" | head -8 | sed 's/(){$//' | sort -u)
  for name in "${names[@]}"; do patterns+=(-e "$name|$name&"); done
  if ((${#names[@]})) && grep -qF "${patterns[@]}" <<<"$squashed"; then
    for name in "${names[@]}"; do
      grep -qF "$name|$name&" <<<"$squashed" &&
        block "fork bomb ($name() calls itself twice in the background) — it would hang the machine."
    done
  fi
  name=$(grep -oE ">[[:space:]]*${DISK_RE#^}[^[:space:];&|)]*" <<<"$command" | head -1)
  [[ -n $name ]] && block "redirecting output onto /dev/${name#*/dev/} would overwrite the disk."
  reduced=$(tr -d "\"'" <<<"$command" | tr ';&|()`' '\n\n\n\n\n\n' |
    grep -E '(^|[^A-Za-z0-9_.-])(rm|dd|mkfs[.A-Za-z0-9]*|git)([^A-Za-z0-9_.-]|$)' | tr '\n' ';')
  [[ -z $reduced ]] && exit 0
  if ((${#reduced} > MAX_BYTES)); then
    block "the command is ${#command} bytes and its rm, dd, mkfs and git commands alone more than the $MAX_BYTES \
this guard checks, so it is blocked unchecked. Split it."
  fi
  command=$reduced
}
whole_checked=0
if ((${#command} > MAX_BYTES)); then
  reduce_long_command
  whole_checked=1
fi

# --- checks on the whole command --------------------------------------------------------------
if ((!whole_checked)); then
  squashed=${command//[[:space:]]/}
  if [[ $squashed == *':(){:|:&};:'* || $squashed == *'forkwhilefork'* ]]; then
    block "fork bomb — it would exhaust the process table and hang the machine."
  fi
  # NAME(){ … NAME|NAME& … }. The name must start after a non-name character: that keeps the regex
  # linear on long commands. Looks at the first few definitions only.
  fork_re='(^|[^A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)\(\)\{(.*)$'
  rest=$squashed
  for _ in 1 2 3 4 5 6 7 8; do
    [[ $rest =~ $fork_re ]] || break
    name=${BASH_REMATCH[2]} rest=${BASH_REMATCH[3]}
    if [[ $rest == *"$name|$name&"* ]]; then
      block "fork bomb ($name() calls itself twice in the background) — it would hang the machine."
    fi
  done
  redirect_re='>[[:space:]]*(/dev/[^[:space:];&|)]+)'
  rest=$command
  while [[ $rest =~ $redirect_re ]]; do
    matched=${BASH_REMATCH[0]} device=${BASH_REMATCH[1]}
    [[ $device =~ $DISK_RE ]] && block "redirecting output onto $device would overwrite the disk."
    rest=${rest#*"$matched"}
  done
fi

# --- per simple command -----------------------------------------------------------------------
# Turn every command separator (and subshell / substitution brackets) into ';' and look at each
# piece on its own. Quotes are dropped from words: `bash -c "rm -rf /"` is still `rm -rf /`.
# Braces stay: `${HOME}` must survive, and `{ rm -rf /; }` is caught because rm may be any word.
segments=$command
# shellcheck disable=SC2016 # '$(' is the literal text
for sep in $'\n' '&&' '||' '|' '&' '`' '$(' '(' ')'; do
  segments=${segments//"$sep"/ ; }
done

# Prints what a path stands for when removing it recursively is fatal; prints nothing otherwise.
critical_target() {
  local p=$1
  # shellcheck disable=SC2016,SC2088 # the literal words as written in the command
  case $p in
    '~' | '~/' | '~/*' | '$HOME' | '$HOME/' | '$HOME/*' | '${HOME}' | '${HOME}/' | '${HOME}/*')
      echo "your home directory"; return ;;
  esac
  [[ $p == /* ]] || return 0
  # `/`, `//`, `/*`, `/.`, `/etc/`, `/etc/*` all reduce to their directory.
  while [[ $p == */ || $p == */\* || $p == */. ]]; do
    if [[ $p == */ ]]; then p=${p%/}; else p=${p%/*}; fi
  done
  if [[ -z $p ]]; then
    echo "the root filesystem"
  elif [[ -n ${HOME:-} && $p == "${HOME%/}" ]]; then
    echo "your home directory"
  elif [[ $CRITICAL_DIRS == *" $p "* ]]; then
    echo "the system directory $p"
  fi
}

check_rm() { # words after rm
  local recursive=0 end_of_opts=0 arg what
  for arg in "$@"; do
    if ((!end_of_opts)); then
      case $arg in
        --) end_of_opts=1; continue ;;
        --no-preserve-root)
          block "rm --no-preserve-root exists only to delete / — refusing." ;;
        --recursive) recursive=1; continue ;;
        --*) continue ;;
        -?*) [[ $arg == *[rR]* ]] && recursive=1; continue ;;
      esac
    fi
    ((recursive)) || continue
    what=$(critical_target "$arg")
    if [[ -n $what ]]; then
      block "recursive rm of '$arg' would delete $what. Remove the specific files or subdirectories you mean instead."
    fi
  done
}

check_git_push() { # words after push
  local force=0 all=0 arg dst
  local -a positional=()
  for arg in "$@"; do
    case $arg in
      --force | --force-with-lease | --force-with-lease=*) force=1 ;;
      --mirror) block "git push --mirror overwrites every ref on the remote, main included." ;;
      --all | --branches) all=1 ;;
      --*) ;;
      -?*) [[ $arg == *f* ]] && force=1 ;;
      *) positional+=("$arg") ;;
    esac
  done
  # The first positional word is the remote; the rest are refspecs.
  local -a dsts=()
  for arg in "${positional[@]:1}"; do
    [[ $arg == +* ]] && force=1
    dst=${arg#+}
    dst=${dst##*:}
    dst=${dst#refs/heads/}
    dsts+=("$dst")
  done
  ((force)) || return 0
  ((all)) && block "force push of all branches would rewrite main/master on the remote."
  if ((${#dsts[@]} == 0)) || [[ " ${dsts[*]} " == *" HEAD "* ]]; then
    # No refspec: git pushes the current branch. Look at what is checked out in the agent's cwd.
    local branch=""
    if [[ -n $cwd && -d $cwd ]]; then
      branch=$(git -C "$cwd" symbolic-ref --quiet --short HEAD 2>/dev/null) || branch=""
    fi
    dsts+=("$branch")
  fi
  for dst in "${dsts[@]}"; do
    if [[ $dst == main || $dst == master ]]; then
      block "force push to $dst rewrites shared history. Push a branch and open a pull request, or ask a human to do it."
    fi
  done
}

check_dd() { # words after dd
  local arg
  for arg in "$@"; do
    if [[ $arg == of=* && ${arg#of=} =~ $DISK_RE ]]; then
      block "dd $arg would overwrite a disk device. Write to an image file instead."
    fi
  done
}

IFS=';' read -r -d '' -a pieces <<<"$segments"
for piece in "${pieces[@]}"; do
  read -r -a words <<<"$piece"
  for i in "${!words[@]}"; do
    w=${words[i]//\"/}
    words[i]=${w//\'/}
  done
  for i in "${!words[@]}"; do
    w=${words[i]}
    case $w in
      rm | */rm) check_rm "${words[@]:i+1}" ;;
      dd | */dd) check_dd "${words[@]:i+1}" ;;
      mkfs | mkfs.* | */mkfs | */mkfs.*)
        block "$w formats a filesystem and destroys everything on the device." ;;
      git | */git)
        for ((j = i + 1; j < ${#words[@]}; j++)); do
          if [[ ${words[j]} == push ]]; then
            check_git_push "${words[@]:j+1}"
            break
          fi
        done
        ;;
    esac
  done
done

exit 0
