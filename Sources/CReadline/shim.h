#ifndef CREADLINE_SHIM_H
#define CREADLINE_SHIM_H

// readline.h uses FILE without including stdio.h.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// Accessors for readline's global variables. Swift 6 rejects every use of an imported
// mutable C global; functions are callable from any context, and each access stays named.

static inline void creadline_set_name(const char *name) { rl_readline_name = name; }

static inline void creadline_set_attempted_completion(rl_completion_func_t *function) {
  rl_attempted_completion_function = function;
}

static inline void creadline_set_attempted_completion_over(int over) {
  rl_attempted_completion_over = over;
}

static inline void creadline_set_completion_append_character(int character) {
  rl_completion_append_character = character;
}

static inline void creadline_set_display_matches_hook(rl_compdisp_func_t *hook) {
  rl_completion_display_matches_hook = hook;
}

static inline void creadline_set_sort_completion_matches(int sort) {
  rl_sort_completion_matches = sort;
}

static inline const char *creadline_line_buffer(void) { return rl_line_buffer; }

// The default break set holds @ (and $, >, = ...), which would split "@home" and "due:x".
// A string literal has static storage, as readline requires.
static inline void creadline_break_words_on_whitespace(void) {
  rl_completer_word_break_characters = " \t\n";
}

// The newest history entry, or NULL when the history is empty.
static inline const char *creadline_last_history_line(void) {
  HIST_ENTRY *entry = history_get(history_base + history_length - 1);
  return entry ? entry->line : NULL;
}

#endif
