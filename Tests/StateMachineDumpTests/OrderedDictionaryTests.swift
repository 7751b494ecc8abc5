import TestSupport
import Testing

@testable import StateMachineDump

@Suite("OrderedDictionary")
struct OrderedDictionaryTests {
    @Test("iteration follows first insertion; an update keeps its position")
    func insertionOrder() {
        var dictionary = OrderedDictionary<String, Int>()
        #expect(dictionary.isEmpty)
        dictionary["b"] = 1
        dictionary["a"] = 2
        dictionary["c"] = 3
        dictionary["b"] = 10
        #expect(dictionary.keys == ["b", "a", "c"])
        #expect(dictionary.values == [10, 2, 3])
        #expect(dictionary["b"] == 10)
        #expect(dictionary["z"] == nil)
        #expect(dictionary.count == 3)
    }

    @Test("removing closes the gap; a removed key inserted again goes to the end")
    func removal() {
        var dictionary = OrderedDictionary<String, Int>()
        dictionary["a"] = 1
        dictionary["b"] = 2
        dictionary["c"] = 3
        #expect(dictionary.removeValue(forKey: "b") == 2)
        #expect(dictionary.removeValue(forKey: "b") == nil)
        dictionary["a"] = nil
        #expect(dictionary.keys == ["c"])
        dictionary["a"] = 4
        #expect(dictionary.keys == ["c", "a"])
        #expect(dictionary.values == [3, 4])
    }

    @Test("equality compares entries and their order")
    func equality() {
        var first = OrderedDictionary<String, Int>()
        first["a"] = 1
        first["b"] = 2
        var second = OrderedDictionary<String, Int>()
        second["b"] = 2
        second["a"] = 1
        #expect(first != second)
        second.removeValue(forKey: "b")
        second["b"] = 2
        #expect(first == second)
        second["b"] = 3
        #expect(first != second)
    }
}
