import Foundation
import StateMachineDump
import TestSupport
import Testing

@testable import StateMachineCore

@Suite("Dump StateContext and its JSON export")
struct StateContextTests {
    @Test("equality: itself; same machine and equal Equatable states; never distinct non-Equatable states")
    func equality() {
        let id = UUID()
        let context = StateContext(stateMachineId: id, state: DataIsIdle())
        #expect(context == context)
        #expect(context == StateContext(stateMachineId: id, state: DataIsIdle(), timeStamp: .distantPast))
        #expect(context != StateContext(stateMachineId: UUID(), state: DataIsIdle()))
        #expect(context != StateContext(stateMachineId: id, state: DataIsLoading(id: "1")))
        let opaque = StateContext(stateMachineId: id, state: OpaqueState())
        #expect(opaque == opaque)
        #expect(opaque != StateContext(stateMachineId: id, state: OpaqueState()))
    }

    @Test("description: [SuperState] state at time stamp")
    func description() {
        let context = StateContext(stateMachineId: UUID(), state: DataIsLoading(id: "1"))
        #expect(context.description == "[FeatureState] DataIsLoading at \(context.timeStamp)")
        #expect(context.stateType == "TestSupport.DataIsLoading")
        #expect(context.superStateType == "TestSupport.FeatureState")
        #expect(context.superState as? FeatureState == FeatureState(isLoaded: false))
    }

    @Test("JSON export: one object per machine, in order, superState only when Encodable")
    func jsonExport() throws {
        let (id1, id2) = (UUID(), UUID())
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let contexts = [
            StateContext(stateMachineId: id1, state: DataIsLoaded(data: "x"), timeStamp: time),
            StateContext(stateMachineId: id2, state: OpaqueState(), timeStamp: time),
        ]
        let data = try StateMachineDump.jsonData(of: contexts)
        let objects = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.count == 2)
        #expect(
            Set(objects[0].keys) == [
                "stateMachineId", "superStateType", "stateType", "state", "superState", "timeStamp",
            ]
        )
        #expect(objects[0]["stateMachineId"] as? String == id1.uuidString)
        #expect(objects[0]["stateType"] as? String == "TestSupport.DataIsLoaded")
        #expect(objects[0]["superStateType"] as? String == "TestSupport.FeatureState")
        #expect(objects[0]["state"] as? String == "DataIsLoaded")
        #expect((objects[0]["superState"] as? [String: Any])?["isLoaded"] as? Bool == true)
        #expect(objects[0]["timeStamp"] as? String == "2027-01-15T08:00:00Z")
        #expect(Set(objects[1].keys) == ["stateMachineId", "superStateType", "stateType", "state", "timeStamp"])
        #expect(objects[1]["stateMachineId"] as? String == id2.uuidString)
        let compact = try StateMachineDump.jsonData(of: contexts, prettyPrinted: false)
        #expect(!String(decoding: compact, as: UTF8.self).contains("\n"))
        let empty = try StateMachineDump.jsonData(of: [], prettyPrinted: false)
        #expect(empty == Data("[]".utf8))
    }
}
