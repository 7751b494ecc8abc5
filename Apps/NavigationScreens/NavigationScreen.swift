import NavigationFeatures
import StateMachineUI
import Terminal

/// The app's one terminal screen: the tab bar, the breadcrumb of the selected tab's
/// stack, the screen on top of it, and the song sheet over it when open.
///
/// The stack machines are the source of truth for what shows: `back` resets the routes
/// (as the original's back button writes the shorter path) instead of popping the
/// runner's own stack of screens.
@MainActor
final class NavigationScreen: Screen {
    let model: NavigationModel

    init(model: NavigationModel) {
        self.model = model
    }

    var title: String { "Navigation" }

    var isBusy: Bool { model.isBusy }

    // MARK: Rendering

    func body(style: TerminalStyle) -> [String] {
        let tabs = Section.allCases.map { section in
            section == model.section ? style.bold(style.cyan("[\(section.title)]")) : " \(section.title) "
        }
        let tabBar = String(("Tabs: " + tabs.joined(separator: " ")).reversed().drop { $0 == " " }.reversed())
        var lines = [tabBar, "Path: " + breadcrumb.joined(separator: " > "), ""]
        if let sheet = model.shownSheet {
            lines += sheetLines(sheet, style: style)
        } else {
            lines += content(style: style)
        }
        return lines
    }

    /// The names of the selected tab's screens, bottom first.
    var breadcrumb: [String] {
        switch model.section {
        case .checkin:
            return ["Places"]
                + model.checkinScreens.map { screen in
                    switch screen {
                    case .place(let id, let ui): ui.state.place?.name ?? Self.placeName(id: id)
                    case .owner(let id, let ui): ui.state.owner?.name ?? "Owner \(ParsedCommand.shortened(id))"
                    }
                }
        case .music:
            let albums = model.musicScreens.map {
                $0.ui.state.album?.title ?? "Album \(ParsedCommand.shortened($0.id))"
            }
            let sheet =
                model.sheet.map { ["[" + ($0.ui.state.song?.title ?? "Song \(ParsedCommand.shortened($0.id))") + "]"] }
                ?? []
            return ["Albums"] + albums + sheet
        case .profile:
            return ["Profile"]
        }
    }

    /// A place's name when its screen has not loaded it (a deep link loads only the top
    /// screen): the backend's names are fixed, so the path reads the same on every screen.
    static func placeName(id: String) -> String {
        let range = 0...(FakeBackend.placeNames.count - 1)
        guard case .success(let index) = NumberArgument.integer(id, in: range, what: "place id"), "\(index)" == id
        else { return "Place \(ParsedCommand.shortened(id))" }
        return FakeBackend.placeNames[index]
    }

    private func content(style: TerminalStyle) -> [String] {
        let loading = { (what: String) in "  " + style.yellow("loading \(what)...") }
        switch model.shownScreen {
        case .places:
            let state = model.places.state
            var lines = ["  Places" + (model.isRefreshing ? " " + style.yellow("(refreshing...)") : "")]
            let isAppearing = model.runningAppearances > 0 && state.places.isEmpty
            if state.isLoading || isAppearing { lines.append(loading("places")) }
            lines += state.places.enumerated().map { index, place in
                let stars =
                    String(repeating: "★", count: place.stars) + String(repeating: "☆", count: max(0, 5 - place.stars))
                return "  \(pad("\(index + 1).", 4))\(pad(place.name, 18)) \(stars)"
            }
            if !state.isLoading && !isAppearing && state.places.isEmpty {
                lines.append("  No places with more than two stars; 'refresh' asks again.")
            }
            if let first = state.places.first {
                lines += ["", Self.numbersAndIds(first: "poc://checkin/place/\(first.id)")]
            }
            return lines
        case .albums:
            let state = model.albums.state
            var lines = ["  Albums" + (model.isRefreshing ? " " + style.yellow("(refreshing...)") : "")]
            if state.isLoading || (model.runningAppearances > 0 && state.albums.isEmpty && !state.isFailed) {
                lines.append(loading("albums"))
            }
            if state.isFailed { lines.append("  " + style.red("An error has occured, refresh the list.")) }
            lines += state.albums.enumerated().map { index, album in
                "  \(pad("\(index + 1).", 4))\(album.title) (\(album.author) - \(album.numberOfSongs) songs)"
            }
            if let first = state.albums.first {
                lines += ["", Self.numbersAndIds(first: "poc://music/album/\(first.id)")]
            }
            return lines
        case .profile:
            return ["  Profile"]
        case .checkin(let index, let route):
            let parent = breadcrumb.indices.contains(index) ? breadcrumb[index] : "Places"
            guard let screen = model.checkinScreen(at: index, showing: route) else { return [loading("\(route)")] }
            switch screen {
            case .place(let id, let ui):
                let state = ui.state
                if let failure = state.failure { return notFound(failure, parent: parent, style: style) }
                guard let place = state.place else { return [loading("place \(ParsedCommand.shortened(id))")] }
                return fields([
                    ("Name", place.name), ("Address", place.address), ("Phone", place.telephone),
                    ("Description", place.description), ("Owner", "\(place.owner.name)  ('owner' shows them)"),
                ])
            case .owner(let id, let ui):
                let state = ui.state
                if let failure = state.failure { return notFound(failure, parent: parent, style: style) }
                guard let owner = state.owner else { return [loading("owner \(ParsedCommand.shortened(id))")] }
                return fields([("Name", owner.name), ("Address", owner.address), ("Age", "\(owner.age)")])
            }
        case .music(let index, let route):
            guard let screen = model.musicScreen(at: index, showing: route) else { return [loading("\(route)")] }
            let state = screen.ui.state
            let parent = breadcrumb.indices.contains(index) ? breadcrumb[index] : "Albums"
            if let failure = state.failure { return notFound(failure, parent: parent, style: style) }
            guard let album = state.album else { return [loading("album \(ParsedCommand.shortened(screen.id))")] }
            return fields([
                ("Title", album.title), ("Author", album.author), ("Producer", album.producer),
                ("Released", album.dateOfRelease),
            ]) + ["  Songs:"]
                + album.songs.enumerated().map { index, song in "    \(pad("\(index + 1).", 4))\(song.title)" }
        }
    }

    /// Under a list: `select` counts from 1, down the list; a deep link names an item by its
    /// id, which is not its number (the first item's link is `first`).
    static func numbersAndIds(first: String) -> String {
        "  'select N' opens number N of this list; a deep link names an item by its id: number 1 is \(first)"
    }

    private func sheetLines(_ sheet: SongSheet, style: TerminalStyle) -> [String] {
        let state = sheet.ui.state
        let inner: [String]
        if let failure = state.failure {
            inner = ["  " + style.red(failure + ".")]
        } else if let song = state.song {
            inner = fields([("Title", song.title), ("Author", song.author), ("Duration", song.duration)])
        } else {
            inner = ["  " + style.yellow("loading song \(sheet.id)...")]
        }
        let under = model.musicScreens.last.map { $0.ui.state.album?.title ?? "Album \($0.id)" } ?? "Albums"
        return ["  +-- Song " + String(repeating: "-", count: 30)]
            + inner.map { "  |" + $0 }
            + ["  +-- 'close' dismisses the sheet " + String(repeating: "-", count: 7), style.dim("  (over \(under))")]
    }

    private func notFound(_ failure: String, parent: String, style: TerminalStyle) -> [String] {
        let failure = ParsedCommand.shortened("\(failure)", to: 80)
        return [
            "  " + style.red("Not found: \(failure)" + (failure.hasSuffix("...") ? "" : ".")),
            "  'back' returns to \(parent).",
        ]
    }

    private func fields(_ pairs: [(String, String)]) -> [String] {
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { "  \(pad($0.0 + ":", width + 2))\($0.1)" }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    // MARK: Commands

    var commands: [CommandSpec] {
        let isSheetOpen = model.shownSheet != nil
        var commands = [
            CommandSpec(
                "tab",
                arguments: "checkin|music|profile",
                "Select a tab",
                isEnabled: !isSheetOpen,
                availableWhen: "once the song sheet is closed ('close' or 'back' first)",
                completions: Section.allCases.map(\.rawValue)
            )
        ]
        if isSheetOpen {
            commands.append(CommandSpec("close", "Dismiss the song sheet"))
        } else {
            switch model.shownScreen {
            case .places:
                let state = model.places.state
                let canSelect = !state.isLoading && state.picked == nil && !state.places.isEmpty
                commands.append(
                    CommandSpec(
                        "select",
                        arguments: "<number>",
                        "Show a place of the list",
                        isEnabled: canSelect,
                        availableWhen: "once the list has loaded",
                        completions: positions(state.places.count)
                    )
                )
                commands.append(
                    CommandSpec(
                        "refresh",
                        "Reload the list (waits for the load)",
                        isEnabled: !state.isLoading && !model.isRefreshing
                    )
                )
            case .albums:
                let state = model.albums.state
                let canSelect = !state.isLoading && state.picked == nil && !state.albums.isEmpty
                commands.append(
                    CommandSpec(
                        "select",
                        arguments: "<number>",
                        "Show an album of the list",
                        isEnabled: canSelect,
                        availableWhen: "once the list has loaded",
                        completions: positions(state.albums.count)
                    )
                )
                commands.append(
                    CommandSpec(
                        "refresh",
                        "Reload the list (waits for the load)",
                        isEnabled: !state.isLoading && !model.isRefreshing
                    )
                )
            case .checkin(let index, let route):
                if case .place(_, let ui) = model.checkinScreen(at: index, showing: route) {
                    commands.append(
                        CommandSpec(
                            "owner",
                            "Show the place's owner",
                            isEnabled: ui.state.place != nil && !ui.state.isLoading
                        )
                    )
                }
            case .music(let index, let route):
                let state = model.musicScreen(at: index, showing: route)?.ui.state
                let canSelect = state.map { $0.album != nil && !$0.isLoading } ?? false
                commands.append(
                    CommandSpec(
                        "song",
                        arguments: "<number>",
                        "Open a song of the album in a sheet",
                        isEnabled: canSelect,
                        availableWhen: "once the album has loaded",
                        completions: positions(state?.album?.songs.count ?? 0)
                    )
                )
            case .profile:
                break
            }
        }
        commands.append(
            CommandSpec(
                "open",
                arguments: "<deeplink>",
                "Go to a link (poc://music/album/1/song/5)",
                completions: Self.linkCompletions
            )
        )
        return commands
    }

    /// `1` to `count`, for Tab.
    private func positions(_ count: Int) -> [String] { count > 0 ? (1...count).map(String.init) : [] }

    /// The links Tab offers after `open`: every tab, and every place and album of the backend.
    static let linkCompletions: [String] =
        Section.allCases.map { "poc://\($0.rawValue)" }
        + FakeBackend.placeNames.indices.map { "poc://checkin/place/\($0)" }
        + FakeBackend.albums.indices.map { "poc://music/album/\($0)" }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        let argument = command.arguments.first
        switch command.name {
        case "tab":
            guard let name = argument, let section = Section(rawValue: name.lowercased()) else {
                return .message("'tab' needs one of: checkin, music, profile.")
            }
            await model.select(section)
        case "open":
            guard command.arguments.count == 1, let text = argument else {
                return .message("'open' needs one link, such as poc://checkin/place/3.")
            }
            switch DeepLink.validated(text) {
            case .success(let link): await model.open(link)
            case .failure(let invalid): return .message("Bad link: \(invalid)")
            }
        case "select":
            return await select(argument)
        case "owner":
            guard case .checkin(let index, let route) = model.shownScreen,
                case .place(_, let ui) = model.checkinScreen(at: index, showing: route),
                let place = ui.state.place
            else { return .message("'owner' needs a loaded place.") }
            await model.selectOwner(id: place.owner.id, on: ui)
        case "song":
            guard case .music(let index, let route) = model.shownScreen,
                let ui = model.musicScreen(at: index, showing: route)?.ui
            else { return .message("'song' needs an album.") }
            guard let songs = ui.state.album?.songs else { return .message("'song' needs a loaded album.") }
            switch position(argument, in: songs.count, of: "song") {
            case .success(let index): await model.selectSong(id: songs[index].id, on: ui)
            case .failure(let error): return .message(error.message + ".")
            }
        case "close":
            await model.closeSheet()
        case "refresh":
            await model.refresh()
        default:
            break
        }
        return .done
    }

    private func select(_ argument: String?) async -> CommandResult {
        switch model.shownScreen {
        case .places:
            let places = model.places.state.places
            switch position(argument, in: places.count, of: "select") {
            case .success(let index): await model.selectPlace(id: places[index].id)
            case .failure(let error): return .message(error.message + ".")
            }
        case .albums:
            let albums = model.albums.state.albums
            switch position(argument, in: albums.count, of: "select") {
            case .success(let index): await model.selectAlbum(id: albums[index].id)
            case .failure(let error): return .message(error.message + ".")
            }
        default:
            return .message("'select' works on the Places and Albums lists.")
        }
        return .done
    }

    /// The index of the item numbered `argument` (from 1) in a list of `count`, through the
    /// apps' one checked number parser; `command` names the command in the errors.
    private func position(_ argument: String?, in count: Int, of command: String) -> Result<Int, UsageError> {
        guard count > 0 else { return .failure(UsageError("'\(command)': the list is empty")) }
        guard let argument else {
            return .failure(UsageError("'\(command)' needs a number from 1 to \(count), the list's numbers"))
        }
        return NumberArgument.integer(argument, in: 1...count, what: "The '\(command)' number")
            .map { $0 - 1 }
    }

    /// The shown screens follow the stacks and (without a terminal) their loads ended.
    func settle() async { await model.settle() }

    /// A sheet to close, or a screen above the selected tab's first one.
    var hasOwnBackStep: Bool {
        if model.shownSheet != nil { return true }
        switch model.shownScreen {
        case .places, .albums, .profile: return false
        default: return true
        }
    }

    /// `back` closes the sheet if open, else pops the selected tab's stack.
    func back() async -> CommandResult? {
        if model.shownSheet != nil {
            await model.closeSheet()
            return .done
        }
        switch model.shownScreen {
        case .places, .albums, .profile:
            return .message("Already on the first screen of \(model.section.title); 'quit' leaves the app.")
        case .checkin, .music:
            await model.pop()
            return .done
        }
    }
}
