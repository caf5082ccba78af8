import Testing
import TodoStore

/// `TodoStore.hasConflictMarkers`: a `<<<<<<<` line followed by a `>>>>>>>` line, whatever
/// else holds '<' (the search for '<' that skips the line walk must not miss or invent one).
@Suite struct ConflictMarkerTests {
  @Test(arguments: [
    ("<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n", true),
    ("x <3\n<<<<<<<\na\n=======\nb\n>>>>>>>\n", true),
    ("a\r\n<<<<<<< HEAD\r\nb\r\n>>>>>>> other\r\n", true),
    ("<<<<<<<\n>>>>>>>", true),
    ("a <<<<<<< b\n>>>>>>> c\n", false),
    ("<<<<<<\n>>>>>>>\n", false),
    ("<<<<<<<x\n>>>>>>>\n", false),
    ("<<<<<<< only the opening\nmore\n", false),
    (">>>>>>> closing first\n<<<<<<<\n", false),
    ("due:<today <<<<<< <\n", false),
    ("", false),
  ])
  func markersAreFoundOnlyWhereTheyAre(text: String, expected: Bool) {
    #expect(TodoStore.hasConflictMarkers(Array(text.utf8)) == expected)
  }
}
