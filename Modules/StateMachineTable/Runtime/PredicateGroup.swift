/// The rows of one (state, event) pair that name predicates.
@usableFromInline
final class PredicateGroup {
    /// For each predicate type of the table, its multiplier in ``dense``; 0 when no row
    /// of the group names the type.
    @usableFromInline let strides: [Int]
    /// The predicate types some row of the group names.
    @usableFromInline let relevant: [Int]
    /// ``relevant`` as bits (type `t` is bit `t`); nil when the table has more than 64
    /// predicate types.
    @usableFromInline let relevantMask: UInt64?
    /// Eager tables: the winner of every combination of the relevant types' cases, as its
    /// row's position in ``rowTransitions`` plus one (0 for none), one byte each while the
    /// group has fewer than 255 rows; ``wideDense`` holds them otherwise. Empty for lazy
    /// tables. One byte, not the transition's index in four, because these cells are most
    /// of an eager table's memory (the product of the relevant types' case counts, per
    /// group).
    @usableFromInline let dense: [UInt8]
    /// ``dense`` for a group of 255 rows or more.
    @usableFromInline let wideDense: [Int32]
    /// Every row, most specific first, for lazy lookup and for calls that leave out a
    /// relevant predicate type: row `r` fires ``rowTransitions``[r], and its (type, case)
    /// constraints are in ``rowMasks`` and ``rowValues`` when the table allows
    /// (``isPacked``), in ``rowStarts``, ``constraintTypes`` and ``constraintCases``
    /// otherwise. Flat arrays, so a scan touches no reference counts.
    @usableFromInline let rowTransitions: [Int]
    /// Whether the rows' constraints are packed, one byte per predicate type: true when the
    /// table has at most 8 predicate types and no row names a case index above 253. Row `r`
    /// then matches the passed predicates' key `k` (see ``packedTransition(for:_:)``) when
    /// `k & rowMasks[r] == rowValues[r]`: one comparison per row, and no buffer of cases.
    @usableFromInline let isPacked: Bool
    /// Row `r`'s constrained types, as 0xFF in each such type's byte (type `t` is byte `t`).
    @usableFromInline let rowMasks: [UInt64]
    /// Row `r`'s constraints, as each constrained type's case index in its byte.
    @usableFromInline let rowValues: [UInt64]
    /// Unpacked rows: row `r` has the (type, case) constraints at positions
    /// `rowStarts[r]..<rowStarts[r + 1]` of ``constraintTypes`` and ``constraintCases``
    /// (all empty when ``isPacked``).
    @usableFromInline let rowStarts: [Int]
    @usableFromInline let constraintTypes: [Int]
    @usableFromInline let constraintCases: [Int]

    /// `dense` gives each combination's winner as its position in `rows` plus one (0 for
    /// none), empty for lazy tables; `rows` are most specific first.
    init(
        strides: [Int],
        relevant: [Int],
        dense: [Int32],
        rows: [(constraints: [(type: Int, case: Int)], transition: Int)]
    ) {
        self.strides = strides
        self.relevant = relevant
        relevantMask = strides.count <= 64 ? relevant.reduce(0) { $0 | 1 << UInt64($1) } : nil
        if rows.count < Int(UInt8.max) {
            self.dense = dense.map { UInt8($0) }
            wideDense = []
        } else {
            self.dense = []
            wideDense = dense
        }
        rowTransitions = rows.map(\.transition)
        let packed = Self.packed(rows.map(\.constraints), typeCount: strides.count)
        isPacked = packed != nil
        rowMasks = packed?.masks ?? []
        rowValues = packed?.values ?? []
        if isPacked {
            rowStarts = []
            constraintTypes = []
            constraintCases = []
        } else {
            var starts = [0]
            for row in rows { starts.append(starts.last! + row.constraints.count) }
            rowStarts = starts
            constraintTypes = rows.flatMap { $0.constraints.map(\.type) }
            constraintCases = rows.flatMap { $0.constraints.map(\.case) }
        }
    }

    /// The rows' constraints as ``rowMasks`` and ``rowValues``, or nil when they do not fit
    /// (more than 8 predicate types, a case index above 253, or a row naming two cases of
    /// one type, which no key can match).
    private static func packed(
        _ rows: [[(type: Int, case: Int)]],
        typeCount: Int
    ) -> (masks: [UInt64], values: [UInt64])? {
        guard typeCount <= 8 else { return nil }
        var masks: [UInt64] = []
        var values: [UInt64] = []
        for constraints in rows {
            var mask: UInt64 = 0
            var value: UInt64 = 0
            for constraint in constraints {
                guard constraint.case >= 0, constraint.case <= 0xFD else { return nil }
                let shift = UInt64(constraint.type * 8)
                let byte = UInt64(constraint.case) << shift
                if mask & (0xFF << shift) != 0 {
                    guard value & (0xFF << shift) == byte else { return nil }
                }
                mask |= 0xFF << shift
                value |= byte
            }
            masks.append(mask)
            values.append(value)
        }
        return (masks, values)
    }

    /// The transition for the given case of each predicate type (-1 where not passed).
    @inlinable
    func transition(for cases: UnsafeMutableBufferPointer<Int>) -> Int? {
        if !dense.isEmpty || !wideDense.isEmpty {
            var offset = 0
            var complete = true
            for type in relevant {
                let value = cases[type]
                if value < 0 {
                    complete = false
                    break
                }
                offset &+= value &* strides[type]
            }
            if complete {
                let position = dense.isEmpty ? Int(wideDense[offset]) : Int(dense[offset])
                return position == 0 ? nil : rowTransitions[position &- 1]
            }
        }
        return scan(cases)
    }

    /// An eager group's winner read straight from the passed predicates, without a buffer
    /// of cases: `.some(nil)` when no row matches the combination, nil when this shortcut
    /// does not apply (a relevant type not passed, a value no case has; or a lazy or wide
    /// group, or more than 64 predicate types, which the table's cells tell apart): the
    /// caller then takes the general way, ``transition(for:)``.
    @inlinable
    func eagerTransition(for passed: some PassedPredicates, _ index: PredicateIndex) -> Int?? {
        guard !dense.isEmpty, let relevantMask else { return nil }
        var seen: UInt64 = 0
        var offset = 0
        var position = 0
        while position < passed.count {
            defer { position &+= 1 }
            guard let type = index.typeIndex(of: passed.typeID(at: position)) else { continue }
            let bit: UInt64 = 1 &<< UInt64(type)
            // For a type passed twice the first value counts, as in `fill`.
            guard seen & bit == 0 else { continue }
            let value = passed.caseIndex(at: position, type: type, in: index)
            guard value >= 0 else { return nil }
            seen |= bit
            offset &+= value &* strides[type]
        }
        guard seen & relevantMask == relevantMask else { return nil }
        let row = Int(dense[offset])
        return row == 0 ? .some(nil) : rowTransitions[row &- 1]
    }

    /// The most specific row whose predicates were all passed, for a group whose rows are
    /// packed (``isPacked``): the passed predicates become a key of one byte per predicate
    /// type (its case index; 0xFE for a case index above 253, which no row names; 0xFF while
    /// no value with a case was passed), built in a register, and each row is one masked
    /// comparison. Types the table does not use are ignored; for a type passed twice the
    /// first value with a case counts, as in ``PredicateIndex/fill(_:from:)``.
    @inlinable
    func packedTransition(for passed: some PassedPredicates, _ index: PredicateIndex) -> Int? {
        var key: UInt64 = ~0
        var position = 0
        while position < passed.count {
            defer { position &+= 1 }
            guard let type = index.typeIndex(of: passed.typeID(at: position)) else { continue }
            let shift = UInt64(truncatingIfNeeded: type &* 8)
            guard (key &>> shift) & 0xFF == 0xFF else { continue }
            let value = passed.caseIndex(at: position, type: type, in: index)
            guard value >= 0 else { continue }
            key &= ~(0xFF &<< shift) | (UInt64(truncatingIfNeeded: Swift.min(value, 0xFE)) &<< shift)
        }
        return rowMasks.withUnsafeBufferPointer { masks in
            rowValues.withUnsafeBufferPointer { values in
                var row = 0
                while row < masks.count {
                    if key & masks[row] == values[row] { return rowTransitions[row] }
                    row &+= 1
                }
                return nil
            }
        }
    }

    /// The most specific row whose predicates were all passed (unpacked rows).
    @inlinable
    func scan(_ cases: UnsafeMutableBufferPointer<Int>) -> Int? {
        var row = 0
        rowLoop: while row < rowTransitions.count {
            var position = rowStarts[row]
            let end = rowStarts[row &+ 1]
            while position < end {
                if cases[constraintTypes[position]] != constraintCases[position] {
                    row &+= 1
                    continue rowLoop
                }
                position &+= 1
            }
            return rowTransitions[row]
        }
        return nil
    }
}
