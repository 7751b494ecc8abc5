/// What a history pseudo state remembers of its state when that state exits.
public enum StatechartHistoryKind: String, Sendable, Hashable, CaseIterable {
    /// The state's active children only; entering through the history enters them and
    /// then their initial states.
    case shallow
    /// The state's whole active sub-configuration, at every depth.
    case deep
}
