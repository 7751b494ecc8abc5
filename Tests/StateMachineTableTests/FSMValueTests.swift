import StateMachineTable
import Testing

enum PaymentState: FSMHashable { case locked, verifyingPayment, unlocked }

enum PaymentEvent: EventWithValues {
    case coin(FSMValue<Int>)
    case card(FSMValue<String>)
    case pass

    var coinValue: Int? {
        guard case .coin(let amount) = self else { return nil }
        return amount.wrappedValue
    }
}

@Suite("EventWithValues and FSMValue")
struct FSMValueTests: SyntaxBuilder {
    typealias State = PaymentState
    typealias Event = PaymentEvent

    @Test(
        "README: when(.coin(.any)) matches every value and the action receives the actual event",
        arguments: [FSM<PaymentState, PaymentEvent>.PredicateHandling.eager, .lazy]
    )
    func anyMatchesEveryValue(type: FSM<PaymentState, PaymentEvent>.PredicateHandling) async throws {
        for amount in [0, 20, 50, 1_000] {
            var received: [Int?] = []
            let turnstile = FSM<State, Event>(type: type, initialState: .locked)
            try turnstile.buildTable {
                define(.locked) {
                    when(.coin(.any)) | then(.verifyingPayment) | { (event: Event) in received.append(event.coinValue) }
                    when(.card("gold")) | then(.unlocked)
                }
            }
            await turnstile.handleEvent(.card("silver"))
            #expect(turnstile.state == .locked)
            await turnstile.handleEvent(.coin(.some(amount)))
            #expect(turnstile.state == .verifyingPayment)
            #expect(received == [amount])
        }
    }

    @Test("Specific values are distinct transitions")
    func specificValues() async throws {
        let expectations: [(Int, PaymentState)] = [(20, .verifyingPayment), (50, .unlocked), (30, .locked)]
        for (amount, expected) in expectations {
            let turnstile = FSM<State, Event>(initialState: .locked)
            try turnstile.buildTable {
                define(.locked) {
                    when(.coin(20)) | then(.verifyingPayment)
                    when(.coin(50)) | then(.unlocked)
                }
            }
            await turnstile.handleEvent(.coin(.some(amount)))
            #expect(turnstile.state == expected, "coin(\(amount))")
        }
    }

    @Test("`.any` clashes with a value of the same case, and the error says why")
    func anyClash() throws {
        let turnstile = FSM<State, Event>(initialState: .locked)
        let line = #line + 4
        do {
            try turnstile.buildTable {
                define(.locked) {
                    when(.coin(.any)) | then(.verifyingPayment)
                    when(.coin(50)) | then(.unlocked)
                }
            }
            Issue.record("no error thrown")
        } catch let error as SwiftFSMError {
            let clash = try #require(error.errors.first as? ClashError)
            #expect(error.errors.count == 1)
            #expect(clash.involvesWildcard)
            #expect(clash.statements.map(\.event) == ["coin(any)", "coin(50)"])
            #expect(clash.statements.map(\.location.line) == [line, line + 1])
            #expect("\(clash)".contains("(FSMValue.any matches every value)"))
        }
    }

    @Test("Equality: .any equals everything; values compare their contents; hashing ignores values")
    func equality() {
        let any = FSMValue<Int>.any
        #expect(any == .some(1))
        #expect(FSMValue<Int>.some(1) == .some(1))
        #expect(FSMValue<Int>.some(1) != .some(2))
        #expect(PaymentEvent.coin(.any) == .coin(5))
        #expect(PaymentEvent.coin(5) != .coin(6))
        #expect(PaymentEvent.coin(5) != .pass)
        #expect(PaymentEvent.coin(5).hashValue == PaymentEvent.coin(.any).hashValue)
        #expect(any.wrappedValue == nil)
        #expect(FSMValue<Int>.some(3).wrappedValue == 3)
    }

    @Test("README: literals and forwarded operations")
    func forwarding() {
        let s: FSMValue<String> = "1"
        let i: FSMValue<Int> = 1
        let ai: FSMValue<[Int]> = [1]
        let d: FSMValue<Double> = 1.5
        let dict: FSMValue<[String: Int]> = ["a": 1]
        let optional: FSMValue<Int?> = nil

        #expect(s + "1" == "11")
        #expect(i + 1 == 2)
        #expect(i - 1 == 0)
        #expect(ai[0] == 1)
        // Evaluated outside #expect, whose decomposition of `==` picks its own overload.
        let sameAsI = ai[0] == i
        let greaterThanI = ai[0] > i
        #expect(sameAsI)
        #expect(!greaterThanI)
        #expect("\(i)\(s)" == "11")
        #expect(d.wrappedValue == 1.5)
        #expect(dict["a"] == 1)
        #expect(dict["b"] == nil)
        #expect(optional == .some(nil))
        #expect(optional != .some(3))
        #expect(ai.count == 1 && Array(ai) == [1])
        #expect(FSMValue<Int>.some(1) < FSMValue<Int>.some(2))
        #expect((i + FSMValue<Int>.some(2)) == .some(3))
        #expect(FSMValue<Int>.zero == .some(0))
        #expect("\(FSMValue<Int>.any)" == "any")
    }

    @Test("Using the value of .any stops the program, like unwrapping nil")
    func anyHasNoValue() async {
        await #expect(processExitsWith: .failure) {
            let any = FSMValue<Int>.any
            _ = any + 1
        }
    }
}
