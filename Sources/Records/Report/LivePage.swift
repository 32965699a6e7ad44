/// What makes a shift report the live page `report --serve` shows: the line now, and how the page keeps up.
///
/// With scripts on, the page asks the server (`/changes?after=VERSION`, a request the server holds until a
/// record lands), then fetches the page anew and puts its body in place of its own; without, it reloads
/// itself every ``refreshSeconds``. The script is the page's only one, allowed by its hash in the content
/// security policy.
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

    /// Waits for the version to move, then swaps in the new page's body. It never navigates: a reload that
    /// failed (the server restarting, a dropped link, a cut-short answer) would leave the browser's error
    /// page, with no script to recover, on a screen nobody touches. A body is swapped only from a whole
    /// answer (its length checked by the browser) that is a live page. Any failure waits two seconds and
    /// asks again; a request unanswered well past the server's longest hold (a silently dead connection) is
    /// given up.
    static let script =
        "(async()=>{const w=t=>new Promise(d=>setTimeout(d,t));for(;;){const v=document.body.dataset.version;"
        + "try{const c=await fetch('/changes?after='+v,{cache:'no-store',signal:AbortSignal.timeout(90000)});"
        + "if(!c.ok)throw c.status;if((await c.text()).trim()===v)continue;"
        + "const p=await fetch('/',{cache:'no-store',signal:AbortSignal.timeout(30000)});if(!p.ok)throw p.status;"
        + "const b=new DOMParser().parseFromString(await p.text(),'text/html').body;if(!b.dataset.version)throw 0;"
        + "document.body.replaceWith(b)}catch(e){await w(2000)}}})();"

    /// The SHA-256 of ``script`` in Base64, as the content security policy names it (a test checks it).
    static let scriptHash = "sha256-8trFdMJkcBOENA8HOK2gUojGlJajb/+QuEz7wwY7UHQ="
}
