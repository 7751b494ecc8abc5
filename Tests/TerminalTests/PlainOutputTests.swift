import Terminal
import Testing

@Suite("Plain output")
struct PlainOutputTests {
    @Test("Control characters are made visible; newlines, tabs and other text are kept")
    func visible() {
        #expect(PlainConsole.visible("a\u{1B}[31mred\u{07}\u{0}z") == "a^[[31mred^G^@z")
        #expect(PlainConsole.visible("line\n\tindented\r") == "line\n\tindented^M")
        #expect(PlainConsole.visible("del\u{7F} next\u{85}line") == "del^? next\\u{85}line")
        #expect(PlainConsole.visible("café ✓ 日本") == "café ✓ 日本")
    }
}
