extension MutableCollection where Index == Int {
  /// Puts the elements in a new order in place: the element at position `i` afterwards is the
  /// one that was at `source(i)` (a permutation of the positions). One cycle of the
  /// permutation at a time, holding one element aside, so that a large array of large
  /// elements (an agenda's entries, a listing's row tables) is never copied whole, as sorting
  /// it or mapping it to a new array would.
  package mutating func permute(_ source: (Int) -> Int) {
    let first = startIndex
    var placed = [Bool](repeating: false, count: count)
    for start in 0..<placed.count where !placed[start] {
      let held = self[first + start]
      var current = start
      while true {
        placed[current] = true
        let from = source(current)
        if from == start {
          self[first + current] = held
          break
        }
        self[first + current] = self[first + from]
        current = from
      }
    }
  }
}
