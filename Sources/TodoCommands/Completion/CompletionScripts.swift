/// The bash, zsh and fish completion scripts, generated from the command table.
///
/// A script holds the static structure: the options and their values, where an option takes a
/// file, and the actions (as a fallback when the tool cannot run). Everything that depends on
/// the configuration and the files (add-ons, task numbers, projects, contexts, tags, file
/// names in the todo directory) comes from `todo __complete`, so the scripts never go stale
/// as a todo list changes. `Completions/` holds the output, checked in; a test keeps them equal.
package enum CompletionScripts {
  /// The shells with a script.
  package static let shells = ["bash", "zsh", "fish"]

  /// The script for `shell`, or `nil` for a shell without one.
  package static func script(for shell: String) -> String? {
    switch shell {
    case "bash": bash
    case "zsh": zsh
    case "fish": fish
    default: nil
    }
  }

  // MARK: The static structure

  /// An option or action word and what it does.
  struct Entry {
    var word: String
    var description: String
  }

  /// The options todo.sh knows, or (`native`) those only `todo` knows, with `--color=`
  /// spelled out (``GlobalOptionSpec/helpEntries(mode:)``).
  static func options(native: Bool) -> [Entry] {
    let letters = GlobalOptionSpec.helpEntries(mode: .todoSh).count
    let entries = GlobalOptionSpec.helpEntries(mode: .native)
    return (native ? entries.dropFirst(letters) : entries.prefix(letters)).flatMap { entry in
      guard entry.option.valueAfterEquals else { return [Entry(word: entry.name, description: entry.help)] }
      return entry.option.value.words.map { Entry(word: entry.name + "=" + $0, description: entry.help) }
    }
  }

  /// The shell patterns of the options whose value is the next word: the long names
  /// (`--config`), and a bundle that ends in such a letter (`-*d`).
  static var separateValuePatterns: (long: [String], bundles: [String]) {
    let options = GlobalOptionSpec.all.filter(\.takesSeparateValue)
    return (options.flatMap(\.longNames), options.compactMap { $0.letter.map { "-*" + String($0) } })
  }

  /// The long options whose value is the user's own text, not a file (`--if-match`).
  static var textValueOptions: [String] {
    GlobalOptionSpec.all.filter { $0.takesSeparateValue && !$0.valueIsPath }.flatMap(\.longNames)
  }

  /// The actions and aliases listed by help, under both names or (`native`) under `todo` only.
  static func actions(native: Bool) -> [Entry] {
    CommandRegistry.all.filter { !$0.hidden && $0.nativeOnly == native }.flatMap { spec in
      spec.names.map { Entry(word: $0, description: spec.abstract) }
    }
  }

  static let header = """
    Generated from the command table by `todo completions %s`; do not edit. Options and
    actions are listed here; add-ons, task numbers, projects, contexts, tags and file names
    come from `todo __complete`, which reads the same configuration and files as the tool.
    """

  static func comment(_ shell: String, _ title: String) -> String {
    "# \(title)\n#\n"
      + header.replacingPercent(with: shell).split(separator: "\n").map { "# " + $0 + "\n" }
      .joined()
  }

  // MARK: bash

  static var bash: String {
    func words(_ entries: [Entry]) -> String { entries.map(\.word).joined(separator: " ") }
    return comment("bash", "bash completion for todo and todo.sh") + """

      _todo() {
        local program=${COMP_WORDS[0]/#\\~/$HOME}
        local options='\(words(options(native: false)))'
        local actions='\(words(actions(native: false)))'
        if [[ ${program##*/} != todo.sh ]]; then
          options+=' \(words(options(native: true)))'
          actions+=' \(words(actions(native: true)))'
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
            \(separateValuePatterns.long.joined(separator: " | "))) ((k += 2)) ;;
            --*) ((k++)) ;;
            \(separateValuePatterns.bundles.joined(separator: " | "))) ((k += 2)) ;;
            -?*) ((k++)) ;;
            *) break ;;
          esac
        done

        local -a reply=()
        local line output status
        if ((k > last)) && [[ \(textValueOptions.map { "${words[last - 1]} == \($0)" }.joined(separator: " || ")) ]]; then
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
            while IFS= read -r line; do reply+=("${line%%$'\\t'*}"); done <<<"$output"
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

      """
  }

  // MARK: zsh

  static var zsh: String {
    func quoted(_ text: String) -> String { "'" + text.replacingAll("'", with: "'\\''") + "'" }
    func described(_ entries: [Entry]) -> String {
      entries.map { "    " + quoted($0.word.replacingAll(":", with: "\\:") + ":" + $0.description) }
        .joined(separator: "\n")
    }
    return "#compdef todo todo.sh\n" + comment("zsh", "zsh completion for todo and todo.sh") + """

      _todo() {
        local program=${(Q)words[1]} cur=${(Q)PREFIX}
        local -a before=("${(@Q)words[2,CURRENT-1]}")
        local -a todo_options=(
      \(described(options(native: false)))
        )
        local -a todo_actions=(
      \(described(actions(native: false)))
        )
        if [[ ${program:t} != todo.sh ]]; then
          todo_options+=(
      \(described(options(native: true)))
          )
          todo_actions+=(
      \(described(actions(native: true)))
          )
        fi

        # Options come before the action; -d and --config take a file.
        local -i k=1 ended=0 last=$(( ${#before} + 1 ))
        while (( k < last )); do
          case ${before[k]} in
            --) (( k++ )); ended=1; break ;;
            \(separateValuePatterns.long.joined(separator: "|"))) (( k += 2 )) ;;
            --*) (( k++ )) ;;
            \(separateValuePatterns.bundles.joined(separator: "|"))) (( k += 2 )) ;;
            -?*) (( k++ )) ;;
            *) break ;;
          esac
        done

        if (( k > last )); then
          [[ \(textValueOptions.map { "${before[-1]} == \($0)" }.joined(separator: " || ")) ]] || _files
          return
        fi
        if (( k == last && !ended )) && [[ $cur == -* ]]; then
          _describe -t global-options option todo_options -S ''
          return
        fi

        local output line value
        local -i code
        output=$(${~program} __complete "${before[@]}" "$cur" 2>/dev/null)
        code=$?
        if (( code != 0 && k == last )); then
          _describe -t actions action todo_actions
          return
        fi
        # Task numbers keep file order; a key, an option or a path goes on without a space.
        local -a closed open
        for line in ${(f)output}; do
          value=${line%%$'\\t'*}
          value=${value//:/\\\\:}
          [[ $line == *$'\\t'* ]] && value+=":${line#*$'\\t'}"
          if [[ ${line%%$'\\t'*} == *[:=/] ]]; then open+=("$value"); else closed+=("$value"); fi
        done
        (( ${#closed} )) && _describe -V -t values value closed
        (( ${#open} )) && _describe -V -t values value open -S ''
        return 0
      }

      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        _todo "$@"
      else
        compdef _todo todo todo.sh
      fi

      """
  }

  // MARK: fish

  static var fish: String {
    func quoted(_ text: String) -> String {
      "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }
    func printed(_ entries: [Entry], indent: String) -> String {
      entries.map { "\(indent)printf '%s\\t%s\\n' \(quoted($0.word)) \(quoted($0.description))" }
        .joined(separator: "\n")
    }
    return comment("fish", "fish completion for todo and todo.sh") + """

      function __todo_complete
          set -l before (commandline -opc)
          set -l cur (commandline -ct)
          set -l program $before[1]
          set -e before[1]
          set -l native 1
          string match -q -r '(^|/)todo\\.sh$' -- $program; and set native 0

          # Options come before the action; -d and --config take a file.
          set -l n (count $before)
          set -l k 1
          set -l ended 0
          while test $k -le $n
              switch $before[$k]
                  case --
                      set k (math $k + 1)
                      set ended 1
                      break
                  case \(separateValuePatterns.long.joined(separator: " "))
                      set k (math $k + 2)
                  case '--*'
                      set k (math $k + 1)
                  case \(separateValuePatterns.bundles.map { "'\($0)'" }.joined(separator: " "))
                      set k (math $k + 2)
                  case '-?*'
                      set k (math $k + 1)
                  case '*'
                      break
              end
          end

          if test $k -gt (math $n + 1)
              \(textValueOptions.map { "test \"$before[-1]\" = \($0)" }.joined(separator: "; or ")); or __fish_complete_path $cur
              return
          end
          if test $k -eq (math $n + 1); and test $ended -eq 0; and string match -q -- '-*' $cur
      \(printed(options(native: false), indent: "        "))
              if test $native -eq 1
      \(printed(options(native: true), indent: "            "))
              end
              return
          end

          set -l output ($program __complete $before $cur 2>/dev/null)
          if test $status -ne 0; and test $k -eq (math $n + 1)
      \(printed(actions(native: false), indent: "        "))
              if test $native -eq 1
      \(printed(actions(native: true), indent: "            "))
              end
              return
          end
          printf '%s\\n' $output
      end

      complete -c todo -f -k -a '(__todo_complete)'
      complete -c todo.sh -f -k -a '(__todo_complete)'

      """
  }
}

extension String {
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }

  fileprivate func replacingPercent(with value: String) -> String {
    replacingAll("%s", with: value)
  }
}
