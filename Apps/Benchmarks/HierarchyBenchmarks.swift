import Foundation
import StateMachineHierarchy

/// Benchmarks of the Hierarchy product: events per second through `Statechart.handle`
/// on a flat ring, on the seed's nested fixture, on a fork/join cycle and on a cycle
/// through the statechart features (deep history, a delayed transition's timer, a final
/// state's done event, an eventless transition), each as a ratio to a hand-written
/// `switch` over the same flat ring, measured in the same run.
enum HierarchyBenchmarks {
    typealias Chart = Statechart<String, String, Int>

    static let ringSize = 8
    static let flatEvents = 400_000
    static let nestedRounds = 40_000

    static func run() async throws {
        let switchRate = try baselineSwitch()
        let figures: [(String, Double)] = [
            ("flat-ring.handle", try flatRing()),
            ("nested-fixture.handle", try nestedFixture()),
            ("fork-join-cycle.handle", try forkJoinCycle()),
            ("history-timer-done-cycle.handle", try featureCycle()),
            ("flat-ring.await-send", try await flatRingSend()),
        ]
        // Throughput first, then cost per event as a multiple of the hand-written switch
        // (the ratio reads better that way round: how many times slower than the switch).
        Harness.report("hierarchy.baseline.switch-flat-ring", value: switchRate, unit: "ev/s")
        for (name, rate) in figures {
            Harness.report("hierarchy.\(name)", value: rate, unit: "ev/s")
        }
        let switchCost = 1e9 / switchRate
        Harness.report("hierarchy.baseline.switch-flat-ring", value: switchCost, unit: "ns/ev")
        for (name, rate) in figures {
            Harness.report("hierarchy.\(name)", value: 1e9 / rate, unit: "ns/ev", baseline: switchCost)
        }
    }

    // MARK: Baseline

    /// The flat ring written by hand: a state enum and a switch on the event name.
    final class HandWrittenRing {
        enum Ring: Int { case s0, s1, s2, s3, s4, s5, s6, s7 }
        var state = Ring.s0
        var transitions = 0

        func handle(_ event: String) {
            switch (state, event) {
            case (.s7, "next"): state = .s0
            case (let current, "next"): state = Ring(rawValue: current.rawValue + 1)!
            default: return
            }
            transitions += 1
        }
    }

    static func baselineSwitch() throws -> Double {
        let events = Array(repeating: "next", count: 1024)
        var checksum = 0
        let nanoseconds = Harness.bestOfSync {
            let ring = HandWrittenRing()
            for round in 0..<(flatEvents / events.count) {
                for event in events { ring.handle(event) }
                checksum &+= round
            }
            checksum &+= ring.transitions
        }
        precondition(checksum != 0)
        return Double(flatEvents) / (nanoseconds / 1e9)
    }

    // MARK: Statecharts

    static func ring() throws -> Chart {
        try Chart(name: "ring") {
            for index in 0..<ringSize {
                Chart.State("s\(index)").on("next", to: "s\((index + 1) % ringSize)")
            }
        }
    }

    static func flatRing() throws -> Double {
        let chart = try ring()
        chart.start()
        let nanoseconds = try Harness.bestOfSync {
            for _ in 0..<flatEvents { try chart.handle("next") }
        }
        precondition(chart.activeStates == ["s0"])
        return Double(flatEvents) / (nanoseconds / 1e9)
    }

    static func flatRingSend() async throws -> Double {
        let chart = try ring()
        chart.start()
        let count = flatEvents / 4
        let nanoseconds = try await Harness.bestOf {
            for _ in 0..<count { try await chart.send("next") }
        }
        return Double(count) / (nanoseconds / 1e9)
    }

    /// The seed's statemachine.json (the fixture of its nested spec), embedded.
    static func nestedChart() throws -> Chart {
        let chart = try Chart(try Chart.definition(fromJSON: statemachineJSON))
        chart.start()
        return chart
    }

    /// Deep transitions, local transitions, into and out of a parallel state; ends where it starts (a/a1).
    static let nestedCycle = [
        "a_guard",  // a/a1 -> b/b1 (handled by the outer state a)
        "b_b22",  // local, deep into b/b2/b22
        "b22_b",  // local, back to b's initial b1
        "b_a3",  // -> a/a3
        "a3_b22",  // deep: a3 -> b/b2/b22
        "b22_b",  // local
        "b_b3",  // into the parallel state b3 (both regions default-entered)
        "b311_a1",  // out of a parallel region to the top
        "a_a2",  // external, containing -> contained
        "a2_a",  // external, contained -> containing
    ]

    static let forkJoinEvents = ["a_fork", "c212_join", "c222_join", "b_a3", "a3_a1"]

    static func nestedFixture() throws -> Double {
        try cycleRate(nestedCycle)
    }

    static func forkJoinCycle() throws -> Double {
        try cycleRate(forkJoinEvents)
    }

    /// `start` enters `work/step1` (arming a 60 s timer on a clock that never moves, so
    /// each visit schedules and cancels it), `next` moves on, `pause` leaves `work` (its deep
    /// history records `step2`), `resume` comes back through the history, and `finish`
    /// enters a final state whose done event leads to `review`, which an eventless
    /// transition leaves for `idle`: five events, ten transitions.
    static func featureChart() throws -> Chart {
        try Chart(name: "features", clock: ManualStatechartClock()) {
            Chart.State("idle")
                .on("start", to: "work")
                .on("resume", to: .history("work.history"))
            Chart.State("work") {
                Chart.State("step1").after(.seconds(60), to: "step2").on("next", to: "step2")
                Chart.State("step2").on("finish", to: "end")
                Chart.State(final: "end")
            }
            .history("work.history", .deep)
            .onDone(to: "review")
            .on("pause", to: "idle")
            Chart.State("review").always(to: "idle")
        }
    }

    static let featureEvents = ["start", "next", "pause", "resume", "finish"]

    static func featureCycle() throws -> Double {
        let chart = try featureChart()
        chart.start()
        let rounds = nestedRounds * 10 / featureEvents.count
        let nanoseconds = try Harness.bestOfSync {
            for _ in 0..<rounds {
                for event in featureEvents where try chart.handle(event) != .handled {
                    fatalError("benchmark cycle broken at \(event)")
                }
            }
        }
        precondition(chart.activeStates == ["idle"])
        return Double(rounds * featureEvents.count) / (nanoseconds / 1e9)
    }

    static func cycleRate(_ cycle: [String]) throws -> Double {
        let chart = try nestedChart()
        let rounds = nestedRounds * 10 / cycle.count
        let nanoseconds = try Harness.bestOfSync {
            for _ in 0..<rounds {
                for event in cycle where try chart.handle(event) != .handled {
                    fatalError("benchmark cycle broken at \(event)")
                }
            }
        }
        precondition(chart.activeStates == ["a", "a1"])
        return Double(rounds * cycle.count) / (nanoseconds / 1e9)
    }
}

extension HierarchyBenchmarks {
    /// `Example/Tests/Fixtures/statemachine.json` from the TBStateMachine seed.
    static let statemachineJSON = #"""
        {
          "name": "main",
          "states": [
            {
              "name": "a",
              "states": [
                {
                  "name": "a1",
                  "type": "state"
                },
                {
                  "name": "a2",
                  "type": "state"
                },
                {
                  "name": "a3",
                  "type": "state"
                }
              ],
              "type": "sub"
            },
            {
              "name": "b",
              "states": [
                {
                  "name": "b1",
                  "type": "state"
                },
                {
                  "name": "b2",
                  "states": [
                    {
                      "name": "b21",
                      "type": "state"
                    },
                    {
                      "name": "b22",
                      "type": "state"
                    }
                  ],
                  "type": "sub"
                },
                {
                  "name": "b3",
                  "regions": [
                    [
                      {
                        "name": "b311",
                        "type": "state"
                      },
                      {
                        "name": "b312",
                        "type": "state"
                      }
                    ],
                    [
                      {
                        "name": "b321",
                        "type": "state"
                      },
                      {
                        "name": "b322",
                        "type": "state"
                      }
                    ]
                  ],
                  "type": "parallel"
                }
              ],
              "type": "sub"
            },
            {
              "name": "c",
              "states": [
                {
                  "name": "c1",
                  "type": "state"
                },
                {
                  "name": "c2",
                  "regions": [
                    [
                      {
                        "name": "c211",
                        "type": "state"
                      },
                      {
                        "name": "c212",
                        "type": "state"
                      }
                    ],
                    [
                      {
                        "name": "c221",
                        "type": "state"
                      },
                      {
                        "name": "c222",
                        "type": "state"
                      }
                    ]
                  ],
                  "type": "parallel"
                }
              ],
              "type": "sub"
            }
          ],
          "transitions": [
            {
              "type": "simple",
              "kind": "external",
              "name": "a2_a",
              "source": "a/a2",
              "target": "a"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a_a2",
              "source": "a",
              "target": "a/a2"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_a1",
              "source": "a/a3",
              "target": "a/a1"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a_guard",
              "source": "a",
              "target": "b"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_b2",
              "source": "a/a3",
              "target": "b/b2"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_b22",
              "source": "a/a3",
              "target": "b/b2/b22"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "b_a3",
              "source": "b",
              "target": "a/a3"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "b311_a1",
              "source": "b/b3@0/b311",
              "target": "a/a1"
            },
            {
              "type": "simple",
              "kind": "local",
              "name": "b22_b",
              "source": "b/b2/b22",
              "target": "b"
            },
            {
              "type": "simple",
              "kind": "local",
              "name": "b_b22",
              "source": "b",
              "target": "b/b2/b22"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "b_b3",
              "source": "b",
              "target": "b/b3"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_b322",
              "source": "a/a3",
              "target": "b/b3@1/b322"
            },
            {
              "type": "compound",
              "name": "a_fork",
              "vertices": {
                "incoming": [
                  {
                    "source": "a",
                    "name": "a_fork"
                  }
                ],
                "outgoing": [
                  {
                    "target": "c/c2@0/c212"
                  },
                  {
                    "target": "c/c2@1/c222"
                  }
                ]
              },
              "pseudo_state": {
                "type": "fork",
                "name": "fork_1",
                "region": "c/c2"
              }
            },
            {
              "type": "compound",
              "name": "join_c_b",
              "vertices": {
                "incoming": [
                  {
                    "source": "c/c2@0/c212",
                    "name": "c212_join"
                  },
                  {
                    "source": "c/c2@1/c222",
                    "name": "c222_join"
                  }
                ],
                "outgoing": [
                  {
                    "target": "b"
                  }
                ]
              },
              "pseudo_state": {
                "type": "join",
                "name": "join_1",
                "region": "c/c2"
              }
            }
          ]
        }
        """#
}
