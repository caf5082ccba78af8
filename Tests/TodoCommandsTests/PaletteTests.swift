import Testing
import TodoTxt

@testable import TodoCommands

/// The one reading of every listing colour.
@Suite struct PaletteTests {
  func palette(_ variables: [String: String]) -> Palette { Palette(Settings(mode: .native, variables: variables)) }

  let esc: [UInt8] = [0x1B]

  @Test func todoShVariablesAreTakenAsSetWithTheirEscapes() {
    let palette = palette(["PRI_A": "\\\\033[1;33m", "COLOR_PROJECT": "\\033[0;34m", "DEFAULT": "\\033[0m"])
    #expect(palette.priorities[UInt8(ascii: "A")] == esc + Array("[1;33m".utf8))
    #expect(palette.priorities[UInt8(ascii: "B")] == nil)
    #expect(palette.project == esc + Array("[0;34m".utf8))
    #expect(palette.lineReset == esc + Array("[0m".utf8))
  }

  @Test func theToolsOwnColoursHaveDefaultsAndAnEmptyValueTurnsThemOff() {
    let unset = palette([:])
    #expect(unset.overdue == esc + Array("[1;31m".utf8))
    #expect(unset.dueSoon == esc + Array("[0;33m".utf8))
    #expect(unset.faint == esc + Array("[2m".utf8))
    let off = palette(["COLOR_OVERDUE": "", "COLOR_DUE_TODAY": "", "COLOR_DUE_SOON": "", "COLOR_FAINT": ""])
    #expect(off.overdue.isEmpty && off.dueToday.isEmpty && off.dueSoon.isEmpty && off.faint.isEmpty)
  }

  @Test func anEmptyDefaultStillEndsTheToolsOwnColours() {
    let palette = palette(["DEFAULT": ""])
    #expect(palette.lineReset.isEmpty)
    #expect(palette.reset == esc + Array("[0m".utf8))
  }

  @Test func plainOutputHasNoColourOfTheToolsOwn() {
    let plain = palette(["TODOTXT_PLAIN": "1", "COLOR_OVERDUE": "\\033[1;31m"])
    #expect(plain.overdue.isEmpty && plain.dueToday.isEmpty && plain.dueSoon.isEmpty && plain.faint.isEmpty)
    #expect(plain.reset.isEmpty)
  }

  @Test func theDueColourSaysOverdueTodayOrNothing() {
    let palette = palette([:])
    let today = TaskDate("2026-12-07")!
    #expect(palette.dueColour(TaskDate("2026-12-06")!, today: today) == palette.overdue)
    #expect(palette.dueColour(today, today: today) == palette.dueToday)
    #expect(palette.dueColour(TaskDate("2026-12-08")!, today: today).isEmpty)
  }
}
