import StatechartToolKit
import Terminal
import Testing

/// `statechart run` in-process, through a scripted console: the frames after each step,
/// the commands and their completions.
@Suite("statechart run: in-process sessions", .timeLimit(.minutes(2)))
@MainActor
struct RunTests {
    /// The frames the session wrote, in order.
    static func frames(_ console: ScriptedConsole) -> [String] {
        console.output.filter { $0.hasPrefix("== ") }
    }

    @Test("SCXML: a done event, a parallel state, and deep history restoring both regions")
    func scxmlSession() async throws {
        let console = ScriptedConsole()
        let run = await runTool(
            ["run", Paths.sample("player.scxml")],
            input: ["ready", "play", "mute", "power", "power"],
            console: console
        )
        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        let frames = Self.frames(console)
        try #require(frames.count == 6, "\(console.output)")
        #expect(
            frames[0] == """
                == player.scxml ==
                  Active: boot, selftest
                  Step 0 (start):
                    enter boot
                    enter selftest

                Commands: done.state.boot, ready, (power), (stop), (play), (pause), (mute), send <event>, help, quit
                """
        )
        #expect(
            frames[1] == """
                == player.scxml ==
                  Active: on, deck, transport, stopped, volume, loud
                  Step 1 (ready):
                    exit selftest
                    enter booted
                    event done.state.boot
                    exit booted
                    exit boot
                    enter on
                    enter deck
                    enter transport
                    enter stopped
                    enter volume
                    enter loud

                Commands: (done.state.boot), (ready), power, stop, play, (pause), mute, send <event>, help, quit
                """
        )
        #expect(frames[2].contains("  Step 2 (play):\n    exit stopped\n    enter playing\n"))
        #expect(frames[3].contains("  Step 3 (mute):\n    exit loud\n    enter muted\n"))
        #expect(frames[4].contains("  Active: off\n"))
        #expect(frames[5].contains("  Active: on, deck, transport, playing, volume, muted\n"))
        #expect(
            frames[5].contains(
                "  Step 5 (power):\n    exit off\n    enter on\n    enter deck\n    enter transport\n    enter playing\n    enter volume\n    enter muted\n"
            )
        )
        // Each command is echoed after the prompt, as in a transcript.
        #expect(console.output.contains("statechart> ready"))
    }

    @Test("JSON: the Statechart runtime's enters and exits, in TBStateMachine's order")
    func jsonSession() async throws {
        let console = ScriptedConsole()
        let run = await runTool(
            ["run", Paths.sample("player.json")],
            input: ["ready", "play", "mute", "power", "power"],
            console: console
        )
        #expect(run.status == 0)
        let frames = Self.frames(console)
        try #require(frames.count == 6, "\(console.output)")
        #expect(
            frames[0] == """
                == player.json ==
                  Active: boot, selftest
                  Step 0 (start):
                    enter boot
                    enter selftest

                Commands: ready, (power), (play), (pause), (stop), (mute), send <event>, help, quit
                """
        )
        // The final state completes boot; its done event enters on.
        #expect(
            frames[1].contains(
                "  Active: on, deck, stopped, loud\n  Step 1 (ready):\n    exit selftest\n    enter booted\n    exit booted\n    exit boot\n    enter on\n    enter deck\n    enter stopped\n    enter loud\n"
            )
        )
        #expect(frames[2].contains("  Step 2 (play):\n    exit stopped\n    enter playing\n"))
        // TBStateMachine exits regions in index order (SCXML: reverse).
        #expect(
            frames[4].contains(
                "  Active: off\n  Step 4 (power):\n    exit playing\n    exit muted\n    exit deck\n    exit on\n    enter off\n"
            )
        )
        // The deep history restores both regions.
        #expect(
            frames[5].contains(
                "  Active: on, deck, playing, muted\n  Step 5 (power):\n    exit off\n    enter on\n    enter deck\n    enter playing\n    enter muted\n"
            )
        )
    }

    @Test("JSON: an internal transition is logged, an event nobody handles gets a note")
    func jsonInternalAndUnhandled() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "clock.json",
            """
            {"name": "clock", "states": [{"name": "ticking", "type": "state"}],
             "transitions": [{"type": "simple", "name": "tick", "kind": "internal", "source": "ticking", "target": "ticking"}]}
            """
        )
        let console = ScriptedConsole()
        _ = await runTool(["run", file], input: ["tick", "send tock"], console: console)
        let frames = Self.frames(console)
        try #require(frames.count == 3, "\(console.output)")
        #expect(
            frames[1].contains("  Active: ticking\n  Step 1 (tick):\n    internal ticking on tick\n\nCommands: tick,")
        )
        #expect(
            frames[2].contains(
                "  Step 2 (tock):\n    (nothing entered or exited)\n  'tock' was not handled: no active state has a transition whose guard passes.\n"
            )
        )
    }

    @Test("Tab completes the events the configuration accepts, with send and the built-ins")
    func completions() async throws {
        let console = ScriptedConsole()
        _ = await runTool(["run", Paths.sample("player.scxml")], input: ["ready"], console: console)
        let prompt = try #require(console.lastPrompt)
        #expect(prompt.prompt == "statechart> ")
        #expect(prompt.completions == ["power", "stop", "play", "mute", "send", "help", "quit"])
    }

    @Test("An event the configuration does not accept is refused; send sends any name")
    func refusedAndSend() async throws {
        let console = ScriptedConsole()
        _ = await runTool(
            ["run", Paths.sample("player.scxml")],
            input: ["play", "send play", "send nothing.here", "send", "ready now", "jump", "send a b", "back"],
            console: console
        )
        let output = console.output
        // The refusal says which transitions would take it.
        #expect(
            output.contains(
                "'play' is not available in state boot, selftest: it is available where a transition matches it: the transition on 'play' of stopped (line 24), the transition on 'play' of paused (line 32) ('send play' sends it anyway)."
            ),
            "\(output)"
        )
        #expect(
            output.contains {
                $0.contains(
                    "  Step 1 (play):\n    (nothing entered or exited)\n  'play' selected no transition: only transitions of states not active match it (the transition on 'play' of stopped (line 24), the transition on 'play' of paused (line 32))."
                )
            }
        )
        #expect(
            output.contains {
                $0.contains(
                    "  Step 2 (nothing.here):\n    (nothing entered or exited)\n  'nothing.here' selected no transition: no transition of the chart matches it."
                )
            }
        )
        #expect(output.contains { $0.contains("  Step 2 (nothing.here):\n") })
        #expect(output.contains("'send' takes one event name (names have no spaces): send <event>."))
        #expect(!output.contains { $0.contains("(a b)") }, "'send a b' sent an event named 'a b'")
        // The tool has one screen: no `back` to offer.
        #expect(
            output.contains {
                $0.hasPrefix(
                    "Unknown command 'back'; to send 'back' as an event, which no transition of the chart matches: send back."
                )
                    && !$0.contains(" back,")
            }
        )
        #expect(output.contains("An event takes no arguments; to send 'ready ...' use send <event>."))
        // An unknown command may be an event the user meant to send: the hint says how.
        #expect(
            output.contains {
                $0.hasPrefix(
                    "Unknown command 'jump'; to send 'jump' as an event, which no transition of the chart matches: send jump. Available here: done.state.boot, ready, send,"
                )
            }
        )
    }

    @Test("Events keep their case, and events named like a built-in are sent with send")
    func caseAndReservedNames() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "case.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="idle"><transition event="goNow" target="busy"/></state>
              <state id="busy"><transition event="back" target="idle"/></state>
            </scxml>
            """
        )
        let console = ScriptedConsole()
        _ = await runTool(["run", file], input: ["goNow", "send back", "GONOW"], console: console)
        let frames = Self.frames(console)
        try #require(frames.count == 4, "\(console.output)")
        #expect(frames[0].contains("Commands: goNow, send <event>, help, quit"))
        #expect(frames[1].contains("  Active: busy\n  Step 1 (goNow):"))
        #expect(frames[2].contains("  Active: idle\n  Step 2 (back):"))
        #expect(frames[3].contains("  Active: busy\n  Step 3 (goNow):"))
    }

    @Test("A top-level final state ends the machine, and the screen says so")
    func done() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "done.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><transition event="finish" target="end"/></state>
              <final id="end"/>
            </scxml>
            """
        )
        let console = ScriptedConsole()
        _ = await runTool(["run", file], input: ["finish", "send finish"], console: console)
        let frames = Self.frames(console)
        try #require(frames.count == 3, "\(console.output)")
        #expect(frames[1].contains("The machine reached a top-level final state; it takes no more events."))
        #expect(frames[1].contains("Commands: (finish), send <event>"))
        #expect(frames[2].contains("'finish' ignored: the machine is not running."))
    }

    @Test("--log writes each step's trace on standard error")
    func log() async throws {
        let run = await runTool(["run", "--log", Paths.sample("player.scxml")], input: ["ready"])
        #expect(
            run.standardError
                == "[trace] enter:boot enter:selftest\n[trace] event:ready exit:selftest enter:booted event:done.state.boot exit:booted exit:boot enter:on enter:deck enter:transport enter:stopped enter:volume enter:loud\n"
        )
        let json = await runTool(["run", "--log", Paths.sample("player.json")], input: ["ready", "power"])
        #expect(json.standardError.contains("[player]: internal event 'done.state.boot'"), "\(json.standardError)")
        #expect(json.standardError.contains("[player] performing transition: on --> off"), "\(json.standardError)")
    }
}
