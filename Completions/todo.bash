# bash completion for todo and todo.sh
#
# Generated from the command table by `todo completions bash`; do not edit. Options and
# actions are listed here; add-ons, task numbers, projects, contexts, tags and file names
# come from `todo __complete`, which reads the same configuration and files as the tool.

_todo() {
  local program=${COMP_WORDS[0]/#\~/$HOME}
  local options='-@ -+ -c -d -f -h -p -P -a -A -n -N -t -T -v -V -x'
  local actions='add a addm addto append app archive command deduplicate del rm depri dp do done help list ls listall lsa listaddons listcon lsc listfile lf listpri lsp listproj lsprj move mv prepend prep pri p replace report shorthelp'
  if [[ ${program##*/} != todo.sh ]]; then
    options+=' --color=always --color=auto --color=never --config --force --help --if-match --plain --verbose --version'
    actions+=' completions agenda due attach attachments note open postpone rec undo-done reopen unarchive show reorder tag undo redo log shell ui dep edit find view import next projects contexts cal calendar stats doctor info merge git-setup sync conflicts resolve caldav'
  fi

  # Bash splits due:today and --color=auto at ':' and '='; a token that follows the
  # previous one without a space continues its word. Only the text before the cursor
  # counts.
  local -a words=()
  local i token rest joined
  [[ -n ${COMP_LINE+set} ]] && rest=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
  for ((i = 0; i <= COMP_CWORD; i++)); do
    token=${COMP_WORDS[i]}
    joined=0
    if [[ -n ${COMP_LINE+set} ]]; then
      [[ $i -eq 0 || $rest == [[:space:]]* ]] || joined=1
      rest=${rest#"${rest%%[![:space:]]*}"}
      ((i == COMP_CWORD)) && token=$rest
      rest=${rest#"$token"}
    fi
    if ((joined && ${#words[@]} > 1)); then words[-1]+=$token; else words+=("$token"); fi
  done
  local cur=${words[-1]} last=$((${#words[@]} - 1))
  # Bash replaces only the last token: drop what comes before it from every candidate.
  local lead=${cur:0:${#cur}-${#token}}

  # Options come before the action; -d and --config take a file.
  local k=1 ended=0
  while ((k < last)); do
    case ${words[k]} in
      --) ((k++)); ended=1; break ;;
      --config | --if-match) ((k += 2)) ;;
      --*) ((k++)) ;;
      -*d) ((k += 2)) ;;
      -?*) ((k++)) ;;
      *) break ;;
    esac
  done

  local -a reply=()
  local line output status
  if ((k > last)) && [[ ${words[last - 1]} == --if-match ]]; then
    :
  elif ((k > last)); then
    compopt -o filenames 2>/dev/null
    mapfile -t reply < <(compgen -f -- "$cur")
  elif ((k == last && !ended)) && [[ $cur == -* ]]; then
    mapfile -t reply < <(compgen -W "$options" -- "$cur")
  else
    output=$("$program" __complete "${words[@]:1}" 2>/dev/null)
    status=$?
    if ((status != 0 && k == last)); then
      mapfile -t reply < <(compgen -W "$actions" -- "$cur")
    elif [[ -n $output ]]; then
      while IFS= read -r line; do reply+=("${line%%$'\t'*}"); done <<<"$output"
    fi
  fi

  COMPREPLY=()
  for line in "${reply[@]}"; do
    [[ $line == "$lead"* ]] && COMPREPLY+=("${line#"$lead"}")
  done
  # A key, an option or a directory goes on without a space.
  if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *[:=/] ]]; then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}

complete -F _todo todo todo.sh
