import Testing

@testable import StateMachineTable

/// Mixed comparisons of an `FSMValue` with a plain value inside `#expect`, which expands
/// `a == b` to `__checkBinaryOperation(a, { $0 == $1() }, b)`: each must give what it gives
/// outside the macro. They once did not: `#expect(i == x)` failed with
/// "(i → 1) == (x → 1)" because the comparison went through `AnyHashable`.
@Suite("FSMValue in #expect")
struct FSMValueExpectTests {
    let one: FSMValue<Int> = 1
    let wildcard: FSMValue<Int> = .any
    let x = 1
    let two = 2
    let zero = 0

    @Test("== with variables, on both sides")
    func equalVariables() {
        #expect(one == x)
        #expect(x == one)
        #expect(!(one == two))
        #expect(!(two == one))
        #expect(wildcard == x)
        #expect(x == wildcard)
        #expect(one == x && x == one)
    }

    @Test("== with literals, on both sides")
    func equalLiterals() {
        #expect(one == 1)
        #expect(1 == one)
        #expect(wildcard == 7)
        #expect(7 == wildcard)
    }

    @Test("!= with variables and literals, on both sides")
    func notEqual() {
        #expect(one != two)
        #expect(two != one)
        #expect(one != 2)
        #expect(2 != one)
        #expect(!(one != x))
        #expect(!(x != one))
        #expect(!(wildcard != two))
        #expect(!(two != wildcard))
    }

    @Test("< and > with variables and literals, on both sides")
    func ordering() {
        #expect(one < two)
        #expect(zero < one)
        #expect(one > zero)
        #expect(two > one)
        #expect(one < 2)
        #expect(0 < one)
        #expect(one > 0)
        #expect(2 > one)
        #expect(!(one < x))
        #expect(!(x > one))
    }

    @Test("the same comparisons outside the macro agree")
    func outsideTheMacro() {
        let results = [
            one == x, x == one, one == 1, 1 == one, wildcard == x, x == wildcard, one != two, two != one,
            one < two, zero < one, one > zero, two > one,
        ]
        #expect(results.allSatisfy { $0 })
        let falses = [one == two, two == one, one != x, x != one, one < x, x > one]
        #expect(!falses.contains(true))
    }

    @Test("a plain optional still compares with nil through Optional's ==")
    func optionalNil() {
        let missing: Int? = nil
        let present: String? = "a"
        #expect(missing == nil)
        #expect(nil == missing)
        #expect(present != nil)
        let wrappedNil: FSMValue<Int?> = nil
        #expect(wrappedNil == nil)
        #expect(wrappedNil != Optional(3))
    }
}
