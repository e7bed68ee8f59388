import Foundation
import SurveyCore
import SurveyRendering
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Interactive mode: keys")
struct KeyDecoderTests {
    func decode(_ text: String, final: Bool = true) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(text.utf8), isFinal: final)
    }

    @Test func arrowsHomeEndDeleteAndPagesInBothEncodings() {
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(decode("\u{1B}OA\u{1B}OH\u{1B}OF") == [.up, .home, .end])
        #expect(
            decode("\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}[H") == [
                .home, .end, .delete, .pageUp, .pageDown, .home,
            ])
        // A modified arrow (Ctrl-→ is ESC [1;5C) is still the arrow; an unknown sequence is dropped.
        #expect(decode("\u{1B}[1;5C\u{1B}[99~x") == [.right, .character("x")])
    }

    @Test func controlKeysEnterBackspaceAndCharacters() {
        #expect(
            decode("a é\u{01}\u{05}\u{15}\u{17}\r\u{7F}\u{08}\t") == [
                .character("a"), .character(" "), .character("é"), .control("a"), .control("e"), .control("u"),
                .control("w"), .enter, .backspace, .backspace, .tab,
            ])
        // CR LF (a paste) is one Enter; a lone LF is one too.
        #expect(decode("x\r\ny\n") == [.character("x"), .enter, .character("y"), .enter])
    }

    @Test func escapeAloneAltAndPendingBytes() {
        #expect(decode("\u{1B}") == [.escape])
        #expect(decode("\u{1B}", final: false) == [])
        #expect(decode("\u{1B}b") == [.alt("b")])
        #expect(decode("\u{1B}\u{1B}[A") == [.escape, .up])
        // A sequence or a character cut between two reads is completed by the next.
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, UInt8(ascii: "[")], isFinal: false) == [])
        #expect(decoder.hasPending)
        #expect(decoder.decode([UInt8(ascii: "B")], isFinal: false) == [.down])
        let snowman = Array("☃".utf8)
        #expect(decoder.decode([snowman[0]], isFinal: false) == [])
        #expect(decoder.decode(Array(snowman[1...]), isFinal: false) == [.character("☃")])
        #expect(!decoder.hasPending)
        // A byte that starts no UTF-8 character is skipped.
        #expect(decoder.decode([0xFF, UInt8(ascii: "z")], isFinal: true) == [.character("z")])
    }
}

@Suite("Interactive mode: line editor")
struct LineEditorTests {
    func type(_ keys: [Key], into editor: inout LineEditor) -> LineEditor.Outcome {
        var last = LineEditor.Outcome.editing
        for key in keys { last = editor.handle(key) }
        return last
    }

    @Test func theUsualEditingKeys() {
        var editor = LineEditor()
        _ = type("helo world".map(Key.character), into: &editor)
        #expect(editor.text == "helo world" && editor.cursor == 10)
        _ = type([.home, .right, .right, .right, .character("l")], into: &editor)
        #expect(editor.text == "hello world" && editor.cursor == 4)
        _ = type([.control("e"), .backspace, .left, .delete], into: &editor)
        #expect(editor.text == "hello wor" && editor.cursor == 9)
        _ = type([.control("w")], into: &editor)
        #expect(editor.text == "hello " && editor.cursor == 6)
        _ = type([.control("a"), .right, .control("k")], into: &editor)
        #expect(editor.text == "h" && editor.cursor == 1)
        _ = type([.character("i"), .end, .character("!"), .left, .control("u")], into: &editor)
        #expect(editor.text == "!" && editor.cursor == 0)
        #expect(type([.enter], into: &editor) == .submitted("!"))
    }

    @Test func commandsFollowEscapeOrAltAndCtrlDOnAnEmptyLine() {
        var editor = LineEditor(text: "x")
        #expect(type([.escape, .character("b")], into: &editor) == .command("b"))
        #expect(editor.text == "x")
        #expect(type([.alt("q")], into: &editor) == .command("q"))
        // Escape then a key that is no command types it.
        #expect(type([.escape, .character("z")], into: &editor) == .editing)
        #expect(editor.text == "xz")
        var empty = LineEditor()
        #expect(type([.control("d")], into: &empty) == .command("q"))
        // ← on an empty line is Back; on a typed one it moves the cursor.
        #expect(type([.left], into: &empty) == .command("b"))
        #expect(type([.character("a"), .left], into: &empty) == .editing)
    }

    @Test func aLongLineScrollsToKeepTheCursorVisible() {
        let editor = LineEditor(text: String(repeating: "a", count: 30) + "bcd")
        let (text, column) = editor.visible(width: 10)
        #expect(text.hasSuffix("abcd") && text.count <= 10)
        #expect(column == text.count)
        let short = LineEditor(text: "日本")
        #expect(short.visible(width: 10) == ("日本", 4))
    }
}

@Suite("Interactive mode: lists")
struct ChoicePickerTests {
    let colours = ["Red", "Green", "Blue", "Other"].enumerated().map {
        ChoicePicker.Item(label: $0.element, answer: String($0.offset + 1))
    }

    func press(_ keys: [Key], _ picker: inout ChoicePicker) -> ChoicePicker.Outcome {
        var last = ChoicePicker.Outcome.moving
        for key in keys { last = picker.handle(key) }
        return last
    }

    @Test func oneChoiceWithArrowsOrJKThenEnter() {
        var picker = ChoicePicker(items: colours, mode: .single)
        #expect(press([.down, .down, .up], &picker) == .moving)
        #expect(picker.cursor == 1)
        #expect(press([.character("j"), .character("j"), .character("j"), .character("k")], &picker) == .moving)
        #expect(picker.cursor == 2)
        #expect(press([.enter], &picker) == .answered("3"))
        #expect(picker.lines(symbols: false).prefix(4) == ["  Red", "  Green", "> Blue", "  Other"])
        // The cursor starts on the answer given before.
        #expect(ChoicePicker(items: colours, mode: .single, current: ["2"]).cursor == 1)
    }

    @Test func severalWithSpaceAndSelectAll() {
        let all = ChoicePicker.Item(label: "All", answer: "0", group: ["1", "2", "3"])
        var picker = ChoicePicker(items: [all] + colours, mode: .multiple, current: ["4"])
        #expect(picker.cursor == 4)
        #expect(press([.home, .character(" ")], &picker) == .moving)
        #expect(picker.selected == ["1", "2", "3", "4"])
        #expect(press([.down, .character(" ")], &picker) == .moving)
        #expect(!picker.isSelected(all))
        #expect(picker.lines(symbols: false)[0] == "  [ ] All")
        #expect(picker.lines(symbols: false)[1] == "> [ ] Red")
        #expect(press([.enter], &picker) == .answered("2,3,4"))
        var none = ChoicePicker(items: colours, mode: .multiple)
        #expect(press([.enter], &none) == .answered(""))
    }

    @Test func rankingPicksUpMovesAndPutsDown() {
        var picker = ChoicePicker(items: Array(colours.prefix(3)), mode: .ranking)
        // Pick up Red, move it down twice, put it down; move to Blue (now first) and confirm.
        #expect(press([.character(" "), .down, .down, .character(" ")], &picker) == .moving)
        #expect(picker.items.map(\.label) == ["Green", "Blue", "Red"])
        #expect(press([.up, .down], &picker) == .moving)
        #expect(picker.items.map(\.label) == ["Green", "Blue", "Red"])
        #expect(press([.home, .character(" "), .down, .character(" ")], &picker) == .moving)
        #expect(picker.lines(symbols: false).prefix(3) == ["  1. Blue", "> 2. Green", "  3. Red"])
        #expect(press([.enter], &picker) == .answered("3,2,1"))
    }

    @Test func aLongListScrollsAndIsFilteredByTyping() {
        let items = (1...30).map { ChoicePicker.Item(label: "Item \($0)", answer: String($0)) }
        var picker = ChoicePicker(items: items, mode: .single, visibleRows: 5)
        #expect(picker.filters)
        #expect(press([.pageDown, .pageDown], &picker) == .moving)
        #expect(picker.cursor == 10 && picker.top == 6)
        #expect(picker.lines(symbols: false).contains("  (7–11 of 30)"))
        // Letters filter (j and b too); Backspace erases; Escape clears.
        #expect(press("2".map(Key.character), &picker) == .moving)
        #expect(picker.shown.count == 12)
        #expect(press([.character("5")], &picker) == .moving)
        #expect(picker.shown == [24])
        #expect(press([.escape], &picker) == .moving)
        #expect(picker.filter.isEmpty && picker.shown.count == 30)
        #expect(press("Item 7".map(Key.character) + [.enter], &picker) == .answered("7"))
        var nothing = ChoicePicker(items: items, mode: .single, visibleRows: 5)
        #expect(press("zz".map(Key.character), &nothing) == .moving)
        #expect(nothing.lines(symbols: false)[1] == "  —")
        #expect(press([.enter], &nothing) == .moving)
    }

    @Test func commandsAndHelp() {
        var picker = ChoicePicker(items: colours, mode: .single)
        #expect(press([.left], &picker) == .command("b"))
        #expect(press([.character("d")], &picker) == .command("d"))
        #expect(press([.character("?")], &picker) == .moving)
        #expect(picker.showsHelp && picker.lines(symbols: false).last?.contains("dismiss") == true)
        // Where letters filter, commands follow Escape (or Alt).
        let items = (1...30).map { ChoicePicker.Item(label: "Item \($0)", answer: String($0)) }
        var long = ChoicePicker(items: items, mode: .single, visibleRows: 5)
        #expect(press([.character("q")], &long) == .moving)
        #expect(press([.escape, .escape, .character("q")], &long) == .command("q"))
        #expect(press([.alt("b")], &long) == .command("b"))
    }
}

@Suite("Interactive mode: screen")
struct ScreenRegionTests {
    @Test func framesRedrawInPlaceAndClose() {
        var region = ScreenRegion()
        #expect(region.frame(["a", "b"], cursor: nil, width: 80) == "\r\u{1B}[Ja\r\nb")
        #expect(region.rowCount == 2 && region.cursorRow == 1)
        // The next frame goes back up to the first row; the cursor is put at row 0, column 3.
        #expect(
            region.frame(["c", "d", "e"], cursor: (0, 3), width: 80)
                == "\u{1B}[1A\r\u{1B}[Jc\r\nd\r\ne\u{1B}[2A\r\u{1B}[3C")
        #expect(region.cursorRow == 0)
        // Closing moves below the last row; the next frame starts there.
        #expect(region.close() == "\u{1B}[2B\r\n")
        #expect(region.frame(["x"], cursor: nil, width: 80) == "\r\u{1B}[Jx")
    }

    @Test func linesAreCutToTheWidthSoNoneWraps() {
        var region = ScreenRegion()
        let text = region.frame([String(repeating: "x", count: 30), "日本語日本語"], cursor: nil, width: 10)
        #expect(text == "\r\u{1B}[J" + String(repeating: "x", count: 8) + "…\r\n日本語日…")
    }
}

/// The keys of `text`, then Enter.
func typing(_ text: String) -> [Key] {
    text.map(Key.character) + [.enter]
}

@Suite("Interactive mode: a survey with keys")
struct InteractiveRunTests {
    /// Runs the text front end's interactive mode on `keys`.
    func run(_ survey: Survey, _ keys: [Key]) -> (DriverOutcome, String) {
        var output = ""
        var renderer = TextRenderer(keys: ScriptedKeys(keys: keys), style: .plain) { output += $0 }
        var driver = SurveyDriver(session: SurveySession(survey: survey))
        return (driver.run(with: &renderer), output)
    }

    @Test func theSameAnswersAsTypedLines() throws {
        let survey = try Fixtures.survey("onboarding.json")
        let typed = runText(survey, ["", "google", "1,3", "Dogs", "2", "y", "Ada", "ada@example.com", ""]).0
        let space = Key.character(" ")
        let keys: [Key] =
            [.enter]  // welcome
            + [.down, .enter]  // source: Google, the second
            + [space, .down, .down, space, .enter] + "Dogs".map(Key.character) + [.enter]  // goals, Other's text
            + [.character("j"), .enter]  // rating 2
            + [.enter]  // contact-me: yes
            + typing("Ada") + typing("ada@example.com") + [.enter]  // thanks
        let (outcome, screen) = run(survey, keys)
        #expect(typed.result != nil)
        #expect(outcome.result == typed.result)
        // Each unit on a fresh screen, the list drawn in place, no numbers to type.
        #expect(screen.contains("\u{1B}[H\u{1B}[2J"))
        #expect(screen.contains("❯ Google"))
        #expect(screen.contains("↑/↓ move · space toggle · enter confirm"))
    }

    @Test func backDismissAndQuitFromTheKeys() throws {
        let survey = try Fixtures.survey("onboarding.json")
        // Back from the second unit returns to the first; ← from the first is refused, said on the next screen.
        let (quit, screen) = run(survey, [.enter, .escape, .character("b"), .left] + typing("q"))
        guard case .quit = quit else {
            Issue.record("expected quit, got \(quit)")
            return
        }
        #expect(screen.contains("Where did you hear about us?"))
        #expect(screen.components(separatedBy: "Hi!").count == 4)
        #expect(screen.contains("! "))
        let (dismissed, _) = run(survey, [.enter, .alt("d")])
        guard case .dismissed = dismissed else {
            Issue.record("expected dismissed, got \(dismissed)")
            return
        }
        // The end of input quits, as in line mode.
        guard case .quit = run(survey, [.enter]).0 else {
            Issue.record("expected quit at the end of input")
            return
        }
    }

    @Test func aRefusedLineIsAskedAgainWithItsErrorInPlace() throws {
        let survey = try Fixtures.survey("onboarding.json")
        // Welcome; Google; no goals; rating 1; contact-me: yes.
        var keys: [Key] = [.enter, .down, .enter, .enter, .enter, .enter]
        keys += typing("Ada") + typing("bad")
        keys += [.control("u")] + typing("ada@example.com") + [.enter]
        let (outcome, screen) = run(survey, keys)
        #expect(outcome.result?.answers["contact"] == ["name": "Ada", "email": "ada@example.com"])
        // The error is drawn under the prompt asked again, which replaced the refused one (the region went up).
        let afterBad = try #require(screen.range(of: "bad")).upperBound
        let rest = screen[afterBad...]
        #expect(rest.contains("\r\u{1B}[J"))
        #expect(rest.contains("! "))
    }
}

#if os(Linux)
    @Suite("Interactive mode: the terminal's mode")
    struct TerminalModeTests {
        struct Thrown: Error {}

        /// A pseudo-terminal pair: (controller, device).
        func openPseudoTerminal() -> (Int32, Int32)? {
            // posix_openpt, grantpt and unlockpt are not imported; Linux's ioctls do the same.
            let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard controller >= 0, ioctl(controller, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
                ioctl(controller, 0x8004_5430 /* TIOCGPTN */, &number) == 0
            else { return nil }
            let device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard device >= 0 else { return nil }
            return (controller, device)
        }

        func flags(_ descriptor: Int32) -> tcflag_t {
            var mode = termios()
            tcgetattr(descriptor, &mode)
            return mode.c_lflag
        }

        @Test func rawModeIsPutBackWhenTheBodyReturnsOrThrows() throws {
            guard let (controller, device) = openPseudoTerminal() else {
                Issue.record("no pseudo-terminal")
                return
            }
            defer {
                close(device)
                close(controller)
            }
            let terminal = try #require(Terminal(input: device, output: device))
            #expect(flags(device) & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
            let inside = terminal.withRawMode { flags(device) }
            #expect(inside & tcflag_t(ICANON | ECHO) == 0)
            #expect(flags(device) & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
            #expect(throws: Thrown.self) {
                try terminal.withRawMode {
                    #expect(flags(device) & tcflag_t(ICANON) == 0)
                    throw Thrown()
                }
            }
            #expect(flags(device) & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
            // Keys typed at the terminal arrive decoded, an arrow's bytes together.
            let keys = terminal.withRawMode {
                _ = Array("\u{1B}[Bq".utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
                return terminal.readKeys()
            }
            #expect(keys == [.down, .character("q")])
            #expect(terminal.size.columns > 0)
        }

        @Test func notATerminalIsNoTerminal() {
            var ends: [Int32] = [-1, -1]
            #expect(pipe(&ends) == 0)
            defer { ends.forEach { close($0) } }
            #expect(Terminal(input: ends[0], output: ends[1]) == nil)
            #expect(!Terminal.isInteractive(environment: ["TERM": "dumb"]))
            #expect(!Terminal.isInteractive(environment: [:]))
        }
    }
#endif
