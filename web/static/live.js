// Following the table live: the box's snapshots from /api/events as they change, for the seats' page and the
// host's alike. A café's Wi-Fi drops streams, often silently: the page reconnects, and says so meanwhile.
"use strict";

(function () {
  const C = window.Companion;
  const RECONNECT_MS = 2000;
  const WATCH_MS = 5000; // how often a stream is checked for having gone quiet
  const QUIET_PINGS = 2.5; // a stream that missed this many of the box's pings is taken for dropped
  const SEAT_AWAY_MS = 5000; // how often a phone whose seat the game on the table lacks asks again

  // Follow the table: `show(snap, streamed)` for each snapshot (`streamed`: from the stream, not a read after it
  // failed), `setLive(on)` when the stream comes or goes, `refused(error)` when the box turns this page away
  // (403: not a link of this table; 429: too many tries). Returns { reconnect() }: follow again, after a refusal too.
  C.followTable = function followTable({ show, setLive, refused }) {
    const live = { stream: null, on: false, heard: 0, pingEvery: 15000 };
    const mark = (on) => { live.on = on; setLive(on); };

    function connect() {
      if (live.stream) live.stream.close();
      mark(false); // until the new stream answers, the table shown may be older than the box's
      const stream = new EventSource("/api/events");
      live.stream = stream;
      stream.addEventListener("snapshot", (event) => {
        live.heard = Date.now();
        mark(true);
        show(JSON.parse(event.data), true);
      });
      stream.addEventListener("ping", (event) => {
        live.heard = Date.now();
        live.pingEvery = JSON.parse(event.data).every * 1000 || live.pingEvery;
      });
      stream.addEventListener("open", () => { live.heard = Date.now(); mark(true); });
      stream.addEventListener("error", () => {
        mark(false);
        if (stream.readyState === EventSource.CLOSED && live.stream === stream) checkAccess();
      });
    }

    // The stream closed: a refused link ends the following; anything else (the box restarting) is tried again.
    async function checkAccess() {
      try {
        show(await C.request("GET", "/api/state"), false);
        setTimeout(connect, RECONNECT_MS);
      } catch (error) {
        if (error.status === 403 || error.status === 429) refused(error);
        if (error.code === "not_at_table") setTimeout(connect, SEAT_AWAY_MS); // its seat may come back with the next game
        else if (error.status !== 403 && error.status !== 429) setTimeout(connect, RECONNECT_MS);
      }
    }

    connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") connect();
    });
    setInterval(() => { // a stream the Wi-Fi silently dropped still looks open: nothing heard for long, reconnect
      if (live.on && Date.now() - live.heard > QUIET_PINGS * live.pingEvery) connect();
    }, WATCH_MS);
    return { reconnect: connect };
  };

  // Whether a snapshot is older than the one shown (null: none yet), so a late answer never draws an older table
  // over a newer one; after a restart the box's seq goes on under a new boot, so another boot is never older.
  C.olderTable = function olderTable(snap, shown) {
    return Boolean(shown) && snap.boot === shown.boot && snap.seq < shown.seq;
  };

  // Show in the header's dot whether the page is live, in the page's language (`word`: a key of C.t).
  C.liveDot = function liveDot(on, word, extra) {
    const dot = document.getElementById("live");
    if (!dot) return;
    dot.className = on ? `live on${extra ? ` ${extra}` : ""}` : "live";
    dot.textContent = C.t(word);
  };
})();
