import Testing

@testable import CaseStudiesScreens

@Suite("Player screen's tree")
@MainActor
struct PlayerTreeTests {
    @Test("regions' machines are left out at any depth; states go one step (two spaces) deeper per level")
    func tree() {
        let configuration =
            "player\n\tactive\n\t\tactiveSubMachine-0\n\t\t\tplaying\n\t\tactiveSubMachine-1\n\t\t\tnormal"
        #expect(PlayerScreen.tree(of: configuration) == ["player", "  active", "    playing", "    normal"])
        let nested = "chart\n\ta\n\t\taSubMachine\n\t\t\tb\n\t\t\t\tbSubMachine-0\n\t\t\t\t\tc"
        #expect(PlayerScreen.tree(of: nested) == ["chart", "  a", "    b", "      c"])
        #expect(
            PlayerScreen.tree(of: "x\n\tnotASubMachineX\n\tySubMachine-") == [
                "x", "  notASubMachineX", "  ySubMachine-",
            ]
        )
    }
}
