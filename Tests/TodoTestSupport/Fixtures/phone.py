"""Plays a phone editing a CalDAV server with a client that is not ours (python3-caldav).

Usage: phone.py URL USER PASSWORD ACTIONS_JSON
ACTIONS_JSON is a list of actions, each a list:
  ["mkcalendar", ID, NAME, [COMPONENTS...]]  make a calendar in the home (NAME defaults to
                                             ID, the components to VTODO); prints its URL
  ["add", CALENDAR_URL, UID, SUMMARY]         save a new VTODO
  ["save", CALENDAR_URL, ICS]                 save a calendar object as it is
  ["edit", CALENDAR_URL, UID, SUMMARY]        change the SUMMARY of a VTODO
  ["edit", CALENDAR_URL, UID, NAME, VALUE]    set a property of the VTODO (the first one)
  ["complete", CALENDAR_URL, UID]             mark a VTODO completed
  ["complete", CALENDAR_URL, UID, MODE]       complete it: "plain", or for a recurring task
                                              "safe" (a completed copy, the series moved on)
                                              or "thisandfuture" (occurrences beside the
                                              series)
  ["delete", CALENDAR_URL, UID]               delete a VTODO
  ["list", CALENDAR_URL]                      print UID<TAB>SUMMARY per VTODO, sorted
  ["dump", CALENDAR_URL]                      print the VTODOs as JSON: uid, summary, status,
                                              due, whether it is an occurrence
                                              (RECURRENCE-ID), description, order
                                              (X-APPLE-SORT-ORDER)
  ["raw", CALENDAR_URL]                       print the objects' iCalendar text as a JSON
                                              list, sorted
  ["put", CALENDAR_URL, NAME, ICS]            PUT the text as the object NAME, as it is
                                              (two names may then hold one UID); prints
                                              the status
  ["token", CALENDAR_URL]                     print the collection's sync token (it changes
                                              with every write)
"""
import datetime
import json
import sys

import caldav
from caldav.elements import dav


def main():
    url, user, password, actions = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    client = caldav.DAVClient(url, username=user, password=password)
    for action in actions:
        kind = action[0]
        if kind == "mkcalendar":
            name = action[2] if len(action) > 2 else action[1]
            components = action[3] if len(action) > 3 else ["VTODO"]
            calendar = client.principal().make_calendar(
                name=name, cal_id=action[1], supported_calendar_component_set=components)
            print(str(calendar.url))
            continue
        calendar = client.calendar(url=action[1])
        if kind == "add":
            calendar.save_todo(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//test//EN\r\n"
                "BEGIN:VTODO\r\nUID:%s\r\nDTSTAMP:20261201T000000Z\r\nSUMMARY:%s\r\n"
                "END:VTODO\r\nEND:VCALENDAR\r\n" % (action[2], action[3]))
        elif kind == "save":
            calendar.save_todo(action[2])
        elif kind == "edit":
            todo = calendar.todo_by_uid(action[2])
            component = todo.icalendar_component
            name, value = ("SUMMARY", action[3]) if len(action) == 4 else (action[3], action[4])
            component.pop(name, None)
            component.add(name, value)
            todo.save()
        elif kind == "complete":
            todo = calendar.todo_by_uid(action[2])
            mode = action[3] if len(action) > 3 else "plain"
            when = datetime.datetime(2026, 6, 10, 9, 0, tzinfo=datetime.timezone.utc)
            if mode == "plain":
                todo.complete(completion_timestamp=when)
            else:
                todo.complete(completion_timestamp=when, handle_rrule=True, rrule_mode=mode)
        elif kind == "delete":
            calendar.todo_by_uid(action[2]).delete()
        elif kind == "list":
            rows = []
            for todo in calendar.todos(include_completed=True):
                component = todo.icalendar_component
                rows.append("%s\t%s" % (component["UID"], component.get("SUMMARY", "")))
            for row in sorted(rows):
                print(row)
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
        elif kind == "put":
            response = client.put(
                str(calendar.url) + action[2], action[3], {"Content-Type": "text/calendar"})
            print(response.status)
        elif kind == "token":
            print(calendar.get_property(dav.SyncToken()))
        elif kind == "raw":
            texts = [todo.data for todo in calendar.todos(include_completed=True)]
            print(json.dumps(sorted(texts)))
        else:
            raise SystemExit("unknown action %r" % kind)


main()
