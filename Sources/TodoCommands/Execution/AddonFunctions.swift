/// Shell functions that todo.sh hands to its add-ons, which many published add-ons call
/// (`die`, `getTodo`, `_list` …). They are given to add-ons the way bash passes exported
/// functions to child processes: environment entries `BASH_FUNC_<name>%%` holding
/// `() { body }`. Each is written here from what the function is documented to do; the ones
/// that list tasks call this tool back (`"$TODO_FULL_SH" command …`), so an add-on sees the
/// same output as the built-in actions.
enum AddonFunctions {
  static let definitions: [(name: String, body: String)] = [
    ("die", #"printf '%s\n' "$*" >&2; exit 1"#),
    (
      "cleaninput",
      #"""
      input=${input//$'\r'/ }
      input=${input//$'\n'/ }
      if [ "$1" = "for sed" ]; then
        input=${input//\\/\\\\}
        input=${input//|/\\|}
        input=${input//&/\\&}
      fi
      """#
    ),
    (
      "getPrefix",
      #"""
      local name
      name=$(basename "${1:-$TODO_FILE}")
      name=${name%%.[^.]*}
      printf '%s\n' "${name^^}"
      """#
    ),
    (
      "getTodo",
      #"""
      local item=$1
      if [ -z "$item" ] || [ -n "${item//[0-9]/}" ]; then die "$errmsg"; fi
      todo=$(sed "$item!d" "${2:-$TODO_FILE}" 2>/dev/null)
      [ -n "$todo" ] || die "$(getPrefix "$2"): No task $item."
      """#
    ),
    (
      "getNewtodo",
      #"""
      local item=$1
      if [ -z "$item" ] || [ -n "${item//[0-9]/}" ]; then die "Programming error: $item should be a number."; fi
      newtodo=$(sed "$item!d" "${2:-$TODO_FILE}" 2>/dev/null)
      [ -n "$newtodo" ] || die "$(getPrefix "$2"): No updated task $item."
      """#
    ),
    (
      "getPadding",
      #"""
      local count
      count=$(sed -n '$ =' "${1:-$TODO_FILE}")
      printf '%s' "${#count}"
      """#
    ),
    (
      "filtercommand",
      #"""
      local pipeline=${1:-} after=${2:-} term
      shift 2 2>/dev/null || shift $#
      for term in "$@"; do
        if [ "${term:0:1}" = - ]; then
          printf -v pipeline '%s%sgrep -v -i %q' "$pipeline" "${pipeline:+ | }" "${term:1}"
        else
          printf -v pipeline '%s%sgrep -i %q' "$pipeline" "${pipeline:+ | }" "$term"
        fi
      done
      [ -n "$after" ] && pipeline="$pipeline${pipeline:+ | }$after"
      printf '%s' "$pipeline"
      """#
    ),
    ("_list", #""$TODO_FULL_SH" command listfile "$@""#),
    (
      "_format",
      #"""
      local file=$1 listing
      shift 2 2>/dev/null || shift $#
      if [ -n "$file" ]; then
        listing=$(TODOTXT_VERBOSE=0 "$TODO_FULL_SH" command listfile "$file" "$@")
        TOTALTASKS=$(grep -c -v '^[ 0-9]*$' "$file")
      else
        local scratch
        scratch=$(mktemp) || return 1
        cat > "$scratch"
        listing=$(TODOTXT_VERBOSE=0 "$TODO_FULL_SH" command listfile "$scratch" "$@")
        TOTALTASKS=$(grep -c -v '^[ 0-9]*$' "$scratch")
        rm -f "$scratch"
      fi
      [ -n "$listing" ] && printf '%s\n' "$listing"
      NUMTASKS=$(printf '%s' "$listing" | grep -c '')
      """#
    ),
    (
      "listWordsWithSigil",
      #"""
      local sigil=$1
      shift
      case $sigil in
        @) "$TODO_FULL_SH" command listcon "$@" ;;
        +) "$TODO_FULL_SH" command listproj "$@" ;;
        *) die "listWordsWithSigil: unknown sigil '$sigil'" ;;
      esac
      """#
    ),
  ]

  /// `sed` as todo.sh's add-ons may get it (with `TODOTXT_SED_EXPORT_FOR_ADDONS=1`): the
  /// configured `TODOTXT_SED_COMMAND` when there is one.
  static let sed: (name: String, body: String) = (
    "sed", #"if [ -n "$TODOTXT_SED_COMMAND" ]; then command "$TODOTXT_SED_COMMAND" "$@"; else command sed "$@"; fi"#
  )

  /// The environment entries for an add-on, given the settings in force.
  static func environment(_ settings: Settings) -> [String: String] {
    var functions = definitions
    if settings.value("TODOTXT_SED_EXPORT_FOR_ADDONS") == "1" { functions.append(sed) }
    var result: [String: String] = [:]
    for (name, body) in functions { result["BASH_FUNC_\(name)%%"] = "() {  \(body)\n}" }
    return result
  }
}
