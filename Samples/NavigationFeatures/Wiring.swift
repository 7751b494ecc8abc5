import StateMachineCore

// MARK: The mediators' wiring: children push screens by sending events to the stacks'
// mediators when they enter a "selected" state; they never reference the stacks.

extension AsyncStateMachine where SuperState == PlacesState, SuperEvent == PlacesEvent {
    /// Selecting a place pushes `.place(id)` on the Checkin stack.
    @discardableResult
    public func pushingPlaces(to mediator: Mediator<CheckinEvent>) -> Self {
        connectAsSender(to: mediator, whenNewState: PlaceIsSelected.self) { _, _, state in
            DidRequestAddingCheckinRoutes(routes: .place(id: state.placeId))
        }
    }
}

extension AsyncStateMachine where SuperState == PlaceState, SuperEvent == PlaceEvent {
    /// Selecting the owner pushes `.owner(id)` on the Checkin stack.
    @discardableResult
    public func pushingOwners(to mediator: Mediator<CheckinEvent>) -> Self {
        connectAsSender(to: mediator, whenNewState: OwnerIsSelected.self) { _, _, state in
            DidRequestAddingCheckinRoutes(routes: .owner(id: state.ownerId))
        }
    }
}

extension AsyncStateMachine where SuperState == AlbumsState, SuperEvent == AlbumsEvent {
    /// Selecting an album pushes `.album(id)` on the Music stack.
    @discardableResult
    public func pushingAlbums(to mediator: Mediator<MusicEvent>) -> Self {
        connectAsSender(to: mediator, whenNewState: AlbumIsSelected.self) { _, _, state in
            DidRequestAddingMusicRoutes(routes: .album(id: state.albumId))
        }
    }
}

extension AsyncStateMachine where SuperState == AlbumState, SuperEvent == AlbumEvent {
    /// Selecting a song (again or not) opens the song sheet over the Music stack.
    @discardableResult
    public func openingSongs(in mediator: Mediator<MusicEvent>) -> Self {
        connectAsSender(to: mediator, whenNewState: SongIsSelected.self) { _, _, state in
            DidRequestSettingPopup(popup: .song(id: state.songId))
        }
    }
}
