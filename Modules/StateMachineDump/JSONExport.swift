#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON array of `stateContexts`, one object per machine, in order:
///
/// ```json
/// [{ "stateMachineId": "…", "superStateType": "MyFeature.FeatureState",
///    "stateType": "MyFeature.DataIsLoading", "state": "DataIsLoading",
///    "superState": { "isLoaded": false }, "timeStamp": "2026-11-29T12:00:00Z" }]
/// ```
///
/// Keys are sorted and dates are ISO 8601. `superState` appears only when the super
/// state is `Encodable`. Throws the `EncodingError` of a super state whose encoding fails.
public func jsonData(of stateContexts: [StateContext], prettyPrinted: Bool = true) throws -> Data {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
    return try encoder.encode(stateContexts)
}
