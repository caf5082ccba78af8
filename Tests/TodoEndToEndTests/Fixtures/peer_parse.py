"""Parses a todo.txt file with another todo.txt library and prints what it read, one JSON
object per line of the file, for PeerDifferentialTests.

Usage: python3 peer_parse.py topydo|pytodotxt FILE

The file is split at LF, so that line numbers are those every tool counts. Each line is then
handed to the library as its own file reader would hand it over: decoded as UTF-8, a CR
before the LF dropped. Bytes that are not UTF-8 become U+FFFD (both libraries would refuse
the whole file; the comparison is about lines). A line the library skips (blank) is printed
as {"line": N, "skipped": true}, one it refuses as {"line": N, "error": MESSAGE}.

Fields: done, priority, completed, created (YYYY-MM-DD or null), projects, contexts (sorted,
each once), tags (sorted [key, value] pairs), text (the body after the head, its words one space apart).
"""
import json
import sys


def lines(path):
    data = open(path, "rb").read()
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    for number, raw in enumerate(parts, 1):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        yield number, raw.decode("utf-8", errors="replace")


def words(text):
    """The text's words, one space apart: how far each tool keeps spacing is not compared."""
    return " ".join(text.split())


def day(value):
    return value.isoformat() if value else None


def with_topydo(path):
    sys.path.insert(0, "/usr/share/topydo")
    from topydo.lib.Config import config
    from topydo.lib.Todo import Todo

    from topydo.lib import TodoParser

    def body(source):
        # The library keeps the body only without its tags; its own head patterns give it whole.
        head = TodoParser._COMPLETED_HEAD_MATCH.match(source) or TodoParser._NORMAL_HEAD_MATCH.match(source)
        return head.group("rest")

    config(p_path="/dev/null")
    for number, text in lines(path):
        if not text.strip():
            yield {"line": number, "skipped": True}
            continue
        todo = Todo(text)
        tags = [[key, value] for key, values in todo.fields["tags"].items() for value in values]
        yield {
            "line": number,
            "done": todo.is_completed(),
            "priority": todo.priority(),
            "completed": day(todo.completion_date()),
            "created": day(todo.creation_date()),
            "projects": sorted(todo.projects()),
            "contexts": sorted(todo.contexts()),
            "tags": sorted(tags),
            "text": words(body(todo.source())),
        }


def with_pytodotxt(path):
    import pytodotxt

    for number, text in lines(path):
        if not text.strip():
            yield {"line": number, "skipped": True}
            continue
        try:
            task = pytodotxt.Task(text)
        except ValueError as error:
            yield {"line": number, "error": str(error)}
            continue
        tags = [[key, value] for key, values in task.attributes.items() for value in values]
        yield {
            "line": number,
            "done": bool(task.is_completed),
            "priority": task.priority,
            "completed": day(task.completion_date),
            "created": day(task.creation_date),
            "projects": sorted(set(task.projects)),
            "contexts": sorted(set(task.contexts)),
            "tags": sorted(tags),
            "text": words(task.description or ""),
        }


def main():
    peer, path = sys.argv[1], sys.argv[2]
    parse = {"topydo": with_topydo, "pytodotxt": with_pytodotxt}[peer]
    out = sys.stdout
    for record in parse(path):
        out.write(json.dumps(record, ensure_ascii=True, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
