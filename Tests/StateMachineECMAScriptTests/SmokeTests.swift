import StateMachineECMAScript
import StateMachineHierarchy
import Testing

@Suite("Smoke")
struct SmokeTests {
    @Test("bounds probe")
    func bounds() throws {
        let texts = [
            "(function () { var a = []; for (var i = 0; i < 100000; i++) a = [a]; return 1 })()",
            "(function () { var a = []; for (var i = 0; i < 1000000; i++) a = [a]; return 1 })()",
            "/(a+)+b/.test('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')",
            "new Array(1e9).join('x')",
            "new Array(1e9).join('')",
            "new Array(1e9).join('xyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyz')",
            "(function () { var a = []; while (true) a.push(new Array(1e6)) })()",
            "(function () { var a = []; while (true) a.push({}) })()",
            "(function () { var a = []; while (true) a.push('' + Math.random()) })()",
            "new Array(1e9).indexOf(1)",
            "new Array(1e9).lastIndexOf(1)",
            "new Array(1e7).reverse().length",
            "new Array(1e7).sort().length",
            "new Array(1e9).slice(0).length",
            "new Array(1e9).forEach(function(){})",
            "new Array(1e9).map(function(){})",
            "Array.prototype.concat.call([], new Array(1e9)).length",
            "var o = {length: 1e9}; Array.prototype.indexOf.call(o, 1)",
            "1 + 1",
        ]
        let session = try Sessions.session(texts.map { Sessions.source(.value, $0) })
        for (index, text) in texts.enumerated() {
            let clock = ContinuousClock()
            var result = ""
            let elapsed = clock.measure {
                do { result = "\(try session.evaluate(index))" } catch { result = "\(error)" }
            }
            print("\(text.prefix(50)) -> \(result) in \(elapsed) (heap \(session.bytesInUse))")
        }
    }
}
