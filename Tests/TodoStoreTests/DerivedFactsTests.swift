import Testing

@testable import TodoStore

/// Facts are kept under typed keys: a key's type names the kind of fact and its fact's type,
/// so two kinds with the same fields never read each other's values.
@Suite struct DerivedFactsTests {
  final class Box<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
  struct Matches: FactKey {
    typealias Fact = Box<[Int]>
    let term: String
  }
  struct Passing: FactKey {
    typealias Fact = Box<String>
    let term: String
  }

  @Test func keysOfTwoKindsWithTheSameFieldsAreTwoFacts() {
    let facts = DerivedFacts()
    facts.set(Matches(term: "mom"), Box([1, 3]))
    #expect(facts.value(Passing(term: "mom")) == nil)
    facts.set(Passing(term: "mom"), Box("passes"))
    #expect(facts.value(Matches(term: "mom"))?.value == [1, 3])
    #expect(facts.value(Passing(term: "mom"))?.value == "passes")
    #expect(facts.value(Matches(term: "dad")) == nil)
  }

  @Test func aFactIsMadeOnceAndThenKept() {
    let facts = DerivedFacts()
    var made = 0
    for _ in 0..<3 {
      let fact = facts.value(Matches(term: "x")) { made += 1; return Box([made]) }
      #expect(fact.value == [1])
    }
    #expect(made == 1)
  }
}
