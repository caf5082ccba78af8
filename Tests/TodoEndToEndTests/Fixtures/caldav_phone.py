"""A phone editing a CalDAV server, played by a client that is not ours (python3-caldav).

Usage: caldav_phone.py URL ACTIONS_JSON, ACTIONS_JSON a list of actions, each a list:
  ["mkcalendar", ID]                 make a task calendar; prints its URL
  ["save", CALENDAR, ICS]            save a calendar object as it is
  ["edit", CALENDAR, UID, NAME, VALUE]  set a property of the VTODO (the first one)
  ["complete", CALENDAR, UID, MODE]  complete it: "plain", or for a recurring task "safe"
                                     (a completed copy, the series moved on) or
                                     "thisandfuture" (occurrences beside the series)
  ["delete", CALENDAR, UID]          delete it
  ["dump", CALENDAR]                 print the VTODOs as JSON: uid, summary, status,
                                     due, whether it is an occurrence (RECURRENCE-ID),
                                     description, order (X-APPLE-SORT-ORDER)
"""
import datetime
import json
import sys

import caldav


def main():
    url, actions = sys.argv[1], json.loads(sys.argv[2])
    client = caldav.DAVClient(url, username="alice", password="x")
    for action in actions:
        kind = action[0]
        if kind == "mkcalendar":
            calendar = client.principal().make_calendar(
                name=action[1], cal_id=action[1], supported_calendar_component_set=["VTODO"])
            print(str(calendar.url))
            continue
        calendar = client.calendar(url=action[1])
        if kind == "save":
            calendar.save_todo(action[2])
        elif kind == "edit":
            todo = calendar.todo_by_uid(action[2])
            component = todo.icalendar_component
            component.pop(action[3], None)
            component.add(action[3], action[4])
            todo.save()
        elif kind == "complete":
            todo = calendar.todo_by_uid(action[2])
            when = datetime.datetime(2026, 6, 10, 9, 0, tzinfo=datetime.timezone.utc)
            if action[3] == "plain":
                todo.complete(completion_timestamp=when)
            else:
                todo.complete(completion_timestamp=when, handle_rrule=True, rrule_mode=action[3])
        elif kind == "delete":
            calendar.todo_by_uid(action[2]).delete()
        elif kind == "dump":
            rows = []
            for todo in calendar.todos(include_completed=True):
                for component in todo.icalendar_instance.walk("VTODO"):
                    due = component.get("DUE")
                    rows.append({
                        "uid": str(component.get("UID")),
                        "summary": str(component.get("SUMMARY", "")),
                        "status": str(component.get("STATUS", "")),
                        "due": due.dt.strftime("%Y-%m-%d") if due is not None else "",
                        "occurrence": component.get("RECURRENCE-ID") is not None,
                        "description": str(component.get("DESCRIPTION", "")),
                        "order": str(component.get("X-APPLE-SORT-ORDER", "")),
                    })
            rows.sort(key=lambda row: (row["uid"], row["occurrence"]))
            print(json.dumps(rows))
        else:
            raise SystemExit("unknown action %r" % kind)


if __name__ == "__main__":
    main()
