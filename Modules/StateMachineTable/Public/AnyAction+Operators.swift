// `&` joins actions of any of the four signatures into one `[AnyAction]`; postfix `*`
// turns one action into a one-element list (for `onEntry:` and `onExit:`).

postfix operator *

/// `AnyAction(lock).named("lock")*`: a one-element action list.
public postfix func * (action: AnyAction) -> [AnyAction] { [action] }
/// `lock*`: a one-element action list.
public postfix func * (action: @escaping () -> Void) -> [AnyAction] { [AnyAction(action)] }
/// `lock*`: a one-element action list.
public postfix func * (action: @escaping @isolated(any) () async -> Void) -> [AnyAction] { [AnyAction(action)] }
/// `lock*`: a one-element action list.
public postfix func * <Event: FSMHashable>(action: @escaping (Event) -> Void) -> [AnyAction] { [AnyAction(action)] }
/// `lock*`: a one-element action list.
public postfix func * <Event: FSMHashable>(action: @escaping @isolated(any) (Event) async -> Void) -> [AnyAction] {
    [AnyAction(action)]
}

/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: [AnyAction], rhs: [AnyAction]) -> [AnyAction] { lhs + rhs }
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: AnyAction, rhs: AnyAction) -> [AnyAction] { [lhs, rhs] }
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: [AnyAction], rhs: AnyAction) -> [AnyAction] { lhs + [rhs] }

/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: [AnyAction], rhs: @escaping () -> Void) -> [AnyAction] { lhs + [AnyAction(rhs)] }
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: [AnyAction], rhs: @escaping @isolated(any) () async -> Void) -> [AnyAction] {
    lhs + [AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(lhs: [AnyAction], rhs: @escaping (Event) -> Void) -> [AnyAction] {
    lhs + [AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: [AnyAction],
    rhs: @escaping @isolated(any) (Event) async -> Void
) -> [AnyAction] {
    lhs + [AnyAction(rhs)]
}

/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: AnyAction, rhs: @escaping () -> Void) -> [AnyAction] { [lhs, AnyAction(rhs)] }
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: AnyAction, rhs: @escaping @isolated(any) () async -> Void) -> [AnyAction] {
    [lhs, AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(lhs: AnyAction, rhs: @escaping (Event) -> Void) -> [AnyAction] {
    [lhs, AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(lhs: AnyAction, rhs: @escaping @isolated(any) (Event) async -> Void) -> [AnyAction] {
    [lhs, AnyAction(rhs)]
}

/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: @escaping () -> Void, rhs: @escaping () -> Void) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: @escaping () -> Void, rhs: @escaping @isolated(any) () async -> Void) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(lhs: @escaping () -> Void, rhs: @escaping (Event) -> Void) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping () -> Void,
    rhs: @escaping @isolated(any) (Event) async -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (lhs: @escaping @isolated(any) () async -> Void, rhs: @escaping () -> Void) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & (
    lhs: @escaping @isolated(any) () async -> Void,
    rhs: @escaping @isolated(any) () async -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping @isolated(any) () async -> Void,
    rhs: @escaping (Event) -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping @isolated(any) () async -> Void,
    rhs: @escaping @isolated(any) (Event) async -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(lhs: @escaping (Event) -> Void, rhs: @escaping () -> Void) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping (Event) -> Void,
    rhs: @escaping @isolated(any) () async -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(lhs: @escaping (Event) -> Void, rhs: @escaping (Event) -> Void) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping (Event) -> Void,
    rhs: @escaping @isolated(any) (Event) async -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping @isolated(any) (Event) async -> Void,
    rhs: @escaping () -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping @isolated(any) (Event) async -> Void,
    rhs: @escaping @isolated(any) () async -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping @isolated(any) (Event) async -> Void,
    rhs: @escaping (Event) -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
/// Joins `AnyAction` lists and actions of any signature, left to right.
public func & <Event: FSMHashable>(
    lhs: @escaping @isolated(any) (Event) async -> Void,
    rhs: @escaping @isolated(any) (Event) async -> Void
) -> [AnyAction] {
    [AnyAction(lhs), AnyAction(rhs)]
}
