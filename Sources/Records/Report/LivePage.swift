/// What makes a shift report the live page `report --serve` shows: the line now, and how the page keeps up.
///
/// With scripts on, the page asks the server (`/changes?after=VERSION`, a request the server holds until a
/// record lands) and reloads as soon as the version moves; without, it reloads itself every
/// ``refreshSeconds``. The script is the page's only one, allowed by its hash in the content security policy.
public struct LivePage: Sendable {
    /// The number of the newest record the page shows.
    public var version: Int64
    public var activity: LineActivity
    public var refreshSeconds: Int

    public init(version: Int64, activity: LineActivity, refreshSeconds: Int = 5) {
        self.version = version
        self.activity = activity
        self.refreshSeconds = refreshSeconds
    }

    /// Waits for the version to move, then reloads; on a failed request it tries again two seconds later.
    static let script =
        "(async()=>{const v=document.body.dataset.version;for(;;){try{const r=await fetch('/changes?after='+v,"
        + "{cache:'no-store'});if((await r.text()).trim()!==v){location.reload();return}}catch(e){"
        + "await new Promise(d=>setTimeout(d,2000))}}})();"

    /// The SHA-256 of ``script`` in Base64, as the content security policy names it (a test checks it).
    static let scriptHash = "sha256-GLYIHz6qldlrjRifVjd9Ep6dQcUCT5iX80BFxJLXSqo="
}
