"""Plays a phone editing a CalDAV server with a client that is not ours (python3-caldav).

Usage: phone.py URL USER PASSWORD ACTIONS_JSON
ACTIONS_JSON is a list of actions, each a list:
  ["mkcalendar", ID, NAME, [COMPONENTS...]]  make a calendar in the home; prints its URL
  ["add", CALENDAR_URL, UID, SUMMARY]         save a new VTODO
  ["edit", CALENDAR_URL, UID, SUMMARY]        change the SUMMARY of a VTODO
  ["complete", CALENDAR_URL, UID]             mark a VTODO completed
  ["delete", CALENDAR_URL, UID]               delete a VTODO
  ["list", CALENDAR_URL]                      print UID<TAB>SUMMARY per VTODO, sorted
"""
import json
import sys

import caldav


def main():
    url, user, password, actions = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    client = caldav.DAVClient(url, username=user, password=password)
    for action in actions:
        kind = action[0]
        if kind == "mkcalendar":
            calendar = client.principal().make_calendar(
                name=action[2], cal_id=action[1], supported_calendar_component_set=action[3])
            print(str(calendar.url))
            continue
        calendar = client.calendar(url=action[1])
        if kind == "add":
            calendar.save_todo(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//test//EN\r\n"
                "BEGIN:VTODO\r\nUID:%s\r\nDTSTAMP:20261201T000000Z\r\nSUMMARY:%s\r\n"
                "END:VTODO\r\nEND:VCALENDAR\r\n" % (action[2], action[3]))
        elif kind == "edit":
            todo = calendar.todo_by_uid(action[2])
            todo.icalendar_component["SUMMARY"] = action[3]
            todo.save()
        elif kind == "complete":
            calendar.todo_by_uid(action[2]).complete()
        elif kind == "delete":
            calendar.todo_by_uid(action[2]).delete()
        elif kind == "list":
            rows = []
            for todo in calendar.todos(include_completed=True):
                component = todo.icalendar_component
                rows.append("%s\t%s" % (component["UID"], component.get("SUMMARY", "")))
            for row in sorted(rows):
                print(row)
        else:
            raise SystemExit("unknown action %r" % kind)


main()
