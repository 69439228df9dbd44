/// The organizer's pages as Mustache templates (swift-mustache), kept in the binary: no files to install, no
/// build step. `{{x}}` is HTML-escaped; the layout is the parent of every page.
enum WebTemplates {
    static let all: [String: String] = [
        "layout": layout, "sign-in": signIn, "events": events, "monitor": monitor, "monitor-live": monitorLive,
        "not-found": notFound, "forbidden": forbidden, "event-nav": eventNav, "dashboard": dashboard,
        "dashboard-live": dashboardLive, "guests": guests, "devices": devices, "pass": pass,
        "double-entries": doubleEntries,
        "pass-missing": passMissing, "confirm": confirm, "import-preview": importPreview, "guest-edit": guestEdit,
        "no-shows": noShows, "account": account,
    ]

    /// The guest's pass on a phone: no organizer header, nothing but the pass.
    static let pass = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Your pass · {{eventName}}</title>
        <link rel="stylesheet" href="/static/style.css">
        </head>
        <body class="pass-page">
        <main id="main" class="pass">
          <h1>{{eventName}}</h1>
          <p class="muted">{{date}}{{#venue}} · {{venue}}{{/venue}}</p>
          {{#cancelled}}<p class="alert" role="alert">This pass was cancelled and will not admit anyone.</p>{{/cancelled}}
          {{^cancelled}}
          <p>{{firstName}}, show this code at the door. It admits {{partySize}}.</p>
          <div class="qr-box pass-qr">{{{qr}}}</div>
          {{/cancelled}}
          <p>Confirmation code: <strong class="code" id="confirmation-code">{{code}}</strong></p>
          {{#checkedIn}}<p class="muted">{{checkedIn}}</p>{{/checkedIn}}
        </main>
        </body>
        </html>
        """

    static let passMissing = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Pass not found</title>
        <link rel="stylesheet" href="/static/style.css">
        </head>
        <body class="pass-page">
        <main id="main" class="pass">
          <h1>Pass not found</h1>
          <p>This link does not lead to a pass. Check that it was copied whole, or ask the organizer to send your
            pass again.</p>
        </main>
        </body>
        </html>
        """

    /// The links between an event's pages.
    static let eventNav = """
        <nav class="event-nav" aria-label="Event pages">
          <a href="/events/{{eventId}}">Dashboard</a>
          <a href="/events/{{eventId}}/monitor">Sync monitor</a>
          <a href="/events/{{eventId}}/guests">Guests</a>
          <a href="/events/{{eventId}}/devices">Devices</a>
          <a href="/events/{{eventId}}/double-entries">Double entries</a>
          <a href="/events/{{eventId}}/no-shows">No-shows</a>
        </nav>
        """

    /// The active guests not checked in, with how to reach them.
    static let noShows = """
        {{<layout}}
        {{$title}}{{heading}} · {{eventName}}{{/title}}
        {{$content}}
        <h1>{{heading}} <span class="muted">{{eventName}}</span></h1>
        {{> event-nav}}
        <p id="no-show-count">{{countText}}</p>
        {{#hasGuests}}
        <table class="list" id="no-shows">
          <thead><tr><th scope="col">Guest</th><th scope="col">Party</th><th scope="col">Phone</th>
            <th scope="col">E-mail</th></tr></thead>
          <tbody>
          {{#guests}}
          <tr id="guest-{{id}}"><th scope="row">{{name}}<br><span class="muted small"><code>{{code}}</code></span></th>
            <td data-label="Party">{{party}}</td><td data-label="Phone">{{phone}}</td>
            <td data-label="E-mail">{{email}}</td></tr>
          {{/guests}}
          </tbody>
        </table>
        {{/hasGuests}}
        {{/content}}
        {{/layout}}
        """

    /// Guests admitted at two doors while the doors were offline: the check-in that counts and the other.
    static let doubleEntries = """
        {{<layout}}
        {{$title}}Double entries · {{eventName}}{{/title}}
        {{$content}}
        <h1>Double entries <span class="muted">{{eventName}}</span></h1>
        {{> event-nav}}
        <p>A guest admitted at two doors while they could not reach the server. The earliest scan is the
          check-in; the later one is kept as superseded. Times in {{zone}}.</p>
        <p class="muted" id="double-entry-count">{{countText}}</p>
        {{#hasEntries}}
        <table class="list" id="double-entries">
          <thead><tr><th scope="col">Guest</th><th scope="col">Checked in</th><th scope="col">Also admitted</th>
            <th scope="col">Gap</th></tr></thead>
          <tbody>
          {{#entries}}
          <tr><th scope="row">{{name}}<br><span class="muted small"><code>{{code}}</code></span></th>
            <td data-label="Checked in">{{checkInDoor}} {{checkInTime}}</td>
            <td data-label="Also admitted">{{otherDoor}} {{otherTime}}</td><td data-label="Gap">{{gap}}</td></tr>
          {{/entries}}
          </tbody>
        </table>
        {{/hasEntries}}
        {{/content}}
        {{/layout}}
        """

    static let dashboard = """
        {{<layout}}
        {{$title}}Dashboard · {{eventName}}{{/title}}
        {{$head}}<script src="/static/live.js" defer></script>{{/head}}
        {{$content}}
        <h1>{{eventName}}</h1>
        {{> event-nav}}
        <div id="dashboard-live" class="live" data-source="/events/{{eventId}}/live">
        {{> dashboard-live}}
        </div>
        {{/content}}
        {{/layout}}
        """

    static let dashboardLive = """
        <p class="muted">As of {{asOf}} ({{zone}})</p>
        <section class="figures">
          <div class="card figure"><span class="big" id="checked-in">{{checkedIn}}</span> of {{guests}} guests checked in ({{percent}} %)</div>
          <div class="card figure"><span class="big" id="arrived-people">{{arrivedPeople}}</span> of {{expectedPeople}} people arrived</div>
          {{#hasCancelled}}<div class="card figure"><span class="big">{{cancelled}}</span> cancelled</div>{{/hasCancelled}}
          <div class="card figure"><a href="/events/{{eventId}}/double-entries"><span class="big" id="double-entries">{{doubleEntries}}</span> double {{doubleEntriesWord}}</a></div>
        </section>
        {{#hasAlerts}}
        <section class="alerts" id="alerts" role="status">
          <h2>Just arrived: tell someone</h2>
          <ul>
          {{#alerts}}<li><strong>{{name}}</strong> at {{door}} {{time}}: {{alert}}</li>{{/alerts}}
          </ul>
        </section>
        {{/hasAlerts}}
        <h2>Arrivals per {{chartWidth}}, by door, the whole event</h2>
        <div class="card chart-box">{{{chart}}}</div>
        <h2>Last check-ins</h2>
        {{^hasRecent}}<p>No check-ins yet.</p>{{/hasRecent}}
        {{#hasRecent}}
        <table class="list" id="recent">
          <thead><tr><th scope="col">Guest</th><th scope="col">Door</th><th scope="col">Time</th><th scope="col">Arrived</th></tr></thead>
          <tbody>
          {{#recent}}<tr{{#alert}} class="alerted"{{/alert}}><th scope="row">{{name}}</th><td data-label="Door">{{door}}</td><td data-label="Time">{{time}}{{#outsideWindow}} <span class="pill pill-stale outside-window" title="The scan's corrected time is outside the event's hours: check the kiosk's clock">outside hours</span>{{/outsideWindow}}</td><td data-label="Arrived">{{party}}</td></tr>{{/recent}}
          </tbody>
        </table>
        {{/hasRecent}}
        """

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{$title}}Check-in{{/title}}</title>
        <link rel="stylesheet" href="/static/style.css">
        {{$head}}{{/head}}
        </head>
        <body>
        <header class="top">
          <a class="brand" href="/events">Check-in</a>
          {{#organizer}}
          <span class="who"><a href="/account" id="account-link">{{name}}</a> · {{tenantName}}</span>
          <form method="post" action="/sign-out" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <button type="submit">Sign out</button>
          </form>
          {{/organizer}}
        </header>
        <main id="main">
        {{$content}}{{/content}}
        </main>
        </body>
        </html>
        """

    static let signIn = """
        {{<layout}}
        {{$title}}Sign in · Check-in{{/title}}
        {{$content}}
        <h1>Sign in</h1>
        {{#message}}<p class="error" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="/sign-in" class="card narrow">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required>
          <button type="submit">Sign in</button>
        </form>
        {{/content}}
        {{/layout}}
        """

    static let events = """
        {{<layout}}
        {{$title}}Events · Check-in{{/title}}
        {{$content}}
        <h1>Events</h1>
        {{^events}}<p>No events yet.</p>{{/events}}
        <ul class="events">
        {{#events}}
          <li class="card"><strong>{{name}}</strong> <span class="muted">{{venue}} · {{when}}</span>
            <a href="/events/{{id}}">Dashboard</a> · <a href="/events/{{id}}/monitor">Sync monitor</a> ·
            <a href="/events/{{id}}/guests">Guests</a> · <a href="/events/{{id}}/devices">Devices</a></li>
        {{/events}}
        </ul>
        {{/content}}
        {{/layout}}
        """

    /// The sync monitor: the live part is its own template, fetched again every few seconds by live.js.
    static let monitor = """
        {{<layout}}
        {{$title}}Sync monitor · {{eventName}}{{/title}}
        {{$head}}<script src="/static/live.js" defer></script>{{/head}}
        {{$content}}
        <h1>Sync monitor <span class="muted">{{eventName}}</span></h1>
        {{> event-nav}}
        <div id="monitor-live" class="live" data-source="/events/{{eventId}}/monitor/live">
        {{> monitor-live}}
        </div>
        <noscript><p class="muted">Reload the page for the latest state.</p></noscript>
        {{/content}}
        {{/layout}}
        """

    static let monitorLive = """
        <p class="muted" id="as-of">As of {{asOf}} ({{zone}}) · {{devicesText}}</p>
        {{#quiet}}
        <section class="empty" id="empty-state" role="status">
          <h2>No devices have synced in the last 30 minutes.</h2>
          <p>If your event is live, this may indicate a network problem at the venue.</p>
          {{#opsContact}}<p>Venue operations: <strong>{{opsContact}}</strong></p>{{/opsContact}}
        </section>
        {{/quiet}}
        {{#hasDevices}}
        <table class="devices">
          <caption class="visually-hidden">Devices of this event</caption>
          <thead><tr><th scope="col">Door</th><th scope="col">State</th><th scope="col">Last seen</th>
            <th scope="col">Roster fetched</th><th scope="col">Pending</th><th scope="col">Version</th>
            <th scope="col">Camera</th><th scope="col">Enrolled by</th></tr></thead>
          <tbody>
          {{#rows}}
            <tr id="device-{{id}}" data-health="{{health}}">
              <th scope="row">{{door}}<br><span class="muted small">{{id}}</span></th>
              <td data-label="State"><span class="pill pill-{{health}}">{{pill}}</span>{{#revoked}} <span class="pill pill-offline">revoked</span>{{/revoked}}{{#showClock}} <span class="pill pill-stale clock-off">{{clockOff}}</span>{{/showClock}}</td>
              <td data-label="Last seen">{{lastSeen}}</td>
              <td data-label="Roster fetched">{{rosterFetched}}{{#showBehind}}<br><span class="small {{#rosterLagging}}behind{{/rosterLagging}}{{^rosterLagging}}muted{{/rosterLagging}}">{{rosterBehind}}</span>{{/showBehind}}</td>
              <td data-label="Pending">{{pending}}</td>
              <td data-label="Version">{{version}}</td>
              <td data-label="Camera">{{camera}}</td>
              <td data-label="Enrolled by">{{enrolledBy}}</td>
            </tr>
          {{/rows}}
          </tbody>
        </table>
        {{/hasDevices}}
        {{^hasDevices}}<p>No kiosk is enrolled for this event yet.</p>{{/hasDevices}}
        """

    static let notFound = """
        {{<layout}}
        {{$title}}Not found · Check-in{{/title}}
        {{$content}}
        <h1>Not found</h1>
        <p>There is nothing here. <a href="/events">Back to your events</a>.</p>
        {{/content}}
        {{/layout}}
        """

    /// Asks before an action that a click must not do alone (cancelling a registration, revoking a kiosk).
    static let confirm = """
        {{<layout}}
        {{$title}}{{heading}} · Check-in{{/title}}
        {{$content}}
        <section class="card narrow" id="confirm">
          <h1>{{heading}}</h1>
          <p>{{message}}</p>
          <form method="post" action="{{action}}">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <button type="submit" class="danger" id="confirm-button">{{button}}</button>
            <a href="{{back}}" id="confirm-back">{{backLabel}}</a>
          </form>
        </section>
        {{/content}}
        {{/layout}}
        """

    /// What an uploaded guest file would do, before anything is written; its form imports it.
    static let importPreview = """
        {{<layout}}
        {{$title}}Import preview · {{eventName}}{{/title}}
        {{$content}}
        <section class="card narrow" id="import-preview">
          <h1>Import this file?</h1>
          <ul id="import-counts">
            <li id="import-added">{{added}}</li>
            <li id="import-updated">{{updated}}{{#updatedNames}} ({{updatedNames}}){{/updatedNames}}</li>
            <li id="import-unchanged">{{unchanged}}</li>
          </ul>
          {{#duplicates}}<p class="alert" role="alert" id="import-duplicates">{{duplicates}}</p>{{/duplicates}}
          <p class="muted small">Guests are matched by guest_id, or by e-mail when the line has no id. Nothing is
            written until you import; then all of it or nothing.</p>
          {{^nothing}}<form method="post" action="/events/{{eventId}}/guests/import/confirm">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <input type="hidden" name="file" value="{{file}}">
            <button type="submit" id="confirm-import">Import</button>
            <a href="/events/{{eventId}}/guests">Cancel</a>
          </form>{{/nothing}}
          {{#nothing}}<p id="import-nothing">Nothing to change: every guest of the file is here as it has them.
            <a href="/events/{{eventId}}/guests">Back to the guests</a></p>{{/nothing}}
        </section>
        {{/content}}
        {{/layout}}
        """

    /// The organizer's own account: a new password.
    static let account = """
        {{<layout}}
        {{$title}}Account · Check-in{{/title}}
        {{$content}}
        <form method="post" action="/account/password" class="card narrow" id="change-password">
          <h1>Change your password</h1>
          <p class="muted">{{email}}</p>
          {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
          {{#problem}}<div class="error" role="alert"><p>{{problem}}</p></div>{{/problem}}
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="current">Current password</label>
          <input id="current" name="current" type="password" autocomplete="current-password" required>
          <label for="password">New password (at least {{minimum}} characters)</label>
          <input id="password" name="password" type="password" autocomplete="new-password" required minlength="{{minimum}}">
          <label for="again">New password again</label>
          <input id="again" name="again" type="password" autocomplete="new-password" required minlength="{{minimum}}">
          <p class="muted small">Your other sessions end; this one stays signed in.</p>
          <button type="submit" id="save-password">Change password</button>
        </form>
        {{/content}}
        {{/layout}}
        """

    /// One guest's fields to change.
    static let guestEdit = """
        {{<layout}}
        {{$title}}Edit {{guest.name}} · {{eventName}}{{/title}}
        {{$content}}
        <form method="post" action="/events/{{eventId}}/guests/{{id}}/edit" class="card narrow" id="edit-guest">
          <h1>Edit guest <code>{{code}}</code></h1>
          {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
          {{#problem}}<div class="error" role="alert"><p>{{problem}}</p></div>{{/problem}}
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="name">Name</label><input id="name" name="name" required maxlength="200" value="{{guest.name}}">
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" maxlength="254" value="{{guest.email}}">
          <label for="phone">Phone</label><input id="phone" name="phone" maxlength="40" value="{{guest.phone}}">
          <label for="partySize">Party size</label>
          <input id="partySize" name="partySize" type="number" min="1" max="99" value="{{guest.partySize}}">
          <label for="accessType">Access type</label>
          <input id="accessType" name="accessType" maxlength="60" value="{{guest.accessType}}">
          <label for="checkInNote">Check-in note</label>
          <input id="checkInNote" name="checkInNote" maxlength="500" value="{{guest.checkInNote}}">
          <label for="arrivalAlert">Arrival alert</label>
          <input id="arrivalAlert" name="arrivalAlert" maxlength="200" value="{{guest.arrivalAlert}}">
          <p class="muted small">Kiosks learn the change with their next roster update; the guest's pass stays
            valid.</p>
          <button type="submit" id="save-guest">Save</button>
          <a href="/events/{{eventId}}/guests?q={{id}}">Cancel</a>
        </form>
        <section class="card narrow" id="pass">
          <h2>Pass</h2>
          {{#passURL}}<p>Sent {{passSent}}. <a href="{{passURL}}" id="show-pass">Show the pass</a>
            {{#passImage}} · <a href="/events/{{eventId}}/guests/{{id}}/pass.png" id="download-pass">Download its image</a>{{/passImage}}</p>{{/passURL}}
          {{^passURL}}<p>No pass made yet.</p>{{/passURL}}
          {{#canResend}}<form method="post" action="/events/{{eventId}}/guests/{{id}}/resend-pass">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <button type="submit" class="secondary" id="resend-pass">Send the pass again</button>
          </form>{{/canResend}}
        </section>
        {{/content}}
        {{/layout}}
        """

    static let forbidden = """
        {{<layout}}
        {{$title}}Refused · Check-in{{/title}}
        {{$content}}
        <h1>Refused</h1>
        <p>This form was not sent from a page of this site, or it is too old. Go back, reload the page and try
          again.</p>
        {{/content}}
        {{/layout}}
        """

    static let guests = """
        {{<layout}}
        {{$title}}Guests · {{eventName}}{{/title}}
        {{$content}}
        <h1>Guests <span class="muted">{{eventName}}</span></h1>
        {{> event-nav}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#listProblem}}<div class="error" role="alert" id="list-problem"><p>{{listProblem}}</p></div>{{/listProblem}}
        <form method="get" action="/events/{{eventId}}/guests" class="search" role="search">
          <label for="q">Search by name, e-mail or confirmation code</label>
          <input id="q" name="q" type="search" value="{{query}}">
          <button type="submit">Search</button>
        </form>
        <p class="muted" id="shown">{{shown}} · Sort by:
          {{#sortLinks}}{{#current}}<strong aria-current="true">{{label}}</strong>{{/current}}{{^current}}<a href="{{url}}">{{label}}</a>{{/current}} {{/sortLinks}}· Download:
          <a href="/events/{{eventId}}/export/guests.csv" id="export-guests">guests (CSV)</a> ·
          <a href="/events/{{eventId}}/export/check-ins.csv" id="export-check-ins">check-ins (CSV)</a></p>
        <table class="list" id="guests">
          <thead><tr><th scope="col">Name</th><th scope="col">Code</th><th scope="col">Party</th>
            <th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
          {{#guests}}
          <tr id="guest-{{id}}"{{^cancellable}} class="cancelled"{{/cancellable}}><th scope="row"><span class="name">{{name}}</span><br><span class="muted small">{{email}}</span></th>
            <td data-label="Code"><code>{{code}}</code></td><td data-label="Party">{{party}}</td>
            <td data-label="State">{{^cancellable}}<span class="pill pill-offline">cancelled</span>{{/cancellable}}{{#cancellable}}{{state}}{{/cancellable}}</td>
            <td>{{#canCheckIn}}<form method="post" action="/events/{{eventId}}/guests/{{id}}/check-in" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="nonce" value="{{nonce}}">
              <button type="submit" aria-label="Check in {{name}}">Check in</button></form>{{/canCheckIn}}
              {{#checkedIn}}<form method="post" action="/events/{{eventId}}/guests/{{id}}/undo-check-in" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="nonce" value="{{nonce}}">
              <button type="submit" class="secondary" aria-label="Undo the check-in of {{name}}">Undo check-in</button></form>{{/checkedIn}}
              <a class="button secondary" href="/events/{{eventId}}/guests/{{id}}/edit" aria-label="Edit {{name}}">Edit</a>
              {{#cancellable}}<a class="button secondary" href="/events/{{eventId}}/guests/{{id}}/cancel" aria-label="Cancel {{name}}">Cancel…</a>{{/cancellable}}
              {{^cancellable}}<form method="post" action="/events/{{eventId}}/guests/{{id}}/reinstate" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}">
              <button type="submit" class="secondary" aria-label="Restore {{name}}">Restore</button></form>{{/cancellable}}</td></tr>
          {{/guests}}
          </tbody>
        </table>
        {{#previous}}<a href="{{previous}}" rel="prev" id="previous-page">← Previous</a>{{/previous}}
        {{#next}}<a href="{{next}}" rel="next" id="next-page">Next →</a>{{/next}}
        {{#hasPasses}}
        <section class="card" id="passes" aria-labelledby="passes-title">
          <h2 id="passes-title">Passes not delivered</h2>
          <table class="list">
            <thead><tr><th scope="col">Guest</th><th scope="col">Step</th><th scope="col">Error</th>
              <th scope="col">Next</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
            {{#passes}}
            <tr id="pass-{{id}}"><th scope="row">{{name}}<br><span class="muted small">{{recipient}}</span></th>
              <td data-label="Step">{{step}}</td><td data-label="Error">{{error}}</td><td data-label="Next">{{next}}</td>
              <td>{{#failed}}<form method="post" action="/events/{{eventId}}/passes/{{id}}/retry" class="inline">
                <input type="hidden" name="csrf" value="{{csrf}}">
                <button type="submit" aria-label="Retry the pass of {{name}}">Retry</button></form>{{/failed}}</td></tr>
            {{/passes}}
            </tbody>
          </table>
        </section>
        {{/hasPasses}}
        <div class="columns">
        <form method="post" action="/events/{{eventId}}/guests#walk-in" class="card narrow" id="walk-in">
          <h2>Add a walk-in</h2>
          {{#walkInProblem}}<div class="error" role="alert"><p>{{walkInProblem}}</p></div>{{/walkInProblem}}
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="name">Name</label><input id="name" name="name" required maxlength="200" value="{{walkIn.name}}">
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" maxlength="254" value="{{walkIn.email}}">
          <label for="partySize">Party size</label>
          <input id="partySize" name="partySize" type="number" min="1" max="99" value="{{walkIn.partySize}}">
          <label for="accessType">Access type</label>
          <input id="accessType" name="accessType" maxlength="60" value="{{walkIn.accessType}}">
          <label for="arrivalAlert">Arrival alert</label>
          <input id="arrivalAlert" name="arrivalAlert" maxlength="200" value="{{walkIn.arrivalAlert}}">
          <button type="submit">Add</button>
        </form>
        <form method="post" action="/events/{{eventId}}/guests/import#import" enctype="multipart/form-data" class="card narrow" id="import">
          <h2>Import a CSV</h2>
          {{#importProblem}}<div class="error" role="alert"><p>{{importProblem}}</p>
            {{#hasLines}}<ul class="problems">{{#lines}}<li>Line {{line}}: {{message}}</li>{{/lines}}</ul>{{/hasLines}}
            {{#moreLines}}<p>… and {{moreLines}} more.</p>{{/moreLines}}</div>{{/importProblem}}
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="csv">CSV file: a header line naming the columns (name required; guest_id, email, phone,
            party_size, access_type, notes, arrival_alert, status optional)</label>
          <input id="csv" name="csv" type="file" accept=".csv,text/csv" required>
          <p class="muted small">Every line or none: a bad line is reported with its number and nothing is imported.</p>
          <button type="submit">Import</button>
        </form>
        </div>
        {{/content}}
        {{/layout}}
        """

    static let devices = """
        {{<layout}}
        {{$title}}Devices · {{eventName}}{{/title}}
        {{$content}}
        <h1>Devices <span class="muted">{{eventName}}</span></h1>
        {{> event-nav}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#code}}
        <section class="card new-code" id="new-code">
          <h2>Enrolment code</h2>
          <p>Shown only now. It enrols one kiosk until {{expires}}:</p>
          <p class="big"><code id="code-text">{{text}}</code></p>
          <p>On the kiosk, as root:</p>
          <p><code id="enrol-command">kioskctl enroll --config /etc/kiosk/kiosk.conf --server {{server}} --code {{text}}</code></p>
          <p class="muted small">Add <code>--ca-file FILE</code> when this server's certificate is signed by your own
            CA, not a public one. Enrolling an enrolled kiosk again renews it; it makes no second device.</p>
          <div class="qr-box">{{{qr}}}</div>
        </section>
        {{/code}}
        <form method="post" action="/events/{{eventId}}/enrolment-codes" class="create-code">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <button type="submit" id="create-code">Create enrolment code</button>
        </form>
        <table class="list" id="devices">
          <thead><tr><th scope="col">Door</th><th scope="col">Device</th><th scope="col">Enrolled</th>
            <th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
          {{#rows}}
          <tr id="device-{{id}}"><th scope="row">{{door}}</th><td data-label="Device"><code>{{id}}</code></td>
            <td data-label="Enrolled">{{enrolledAt}} by {{enrolledBy}}</td><td data-label="State">{{state}}</td>
            <td>{{^revoked}}<a class="button danger" href="/events/{{eventId}}/devices/{{id}}/revoke" aria-label="Revoke {{door}}">Revoke…</a>{{/revoked}}</td></tr>
          {{/rows}}
          </tbody>
        </table>
        {{^rows}}<p>No kiosk is enrolled for this event yet.</p>{{/rows}}
        {{#alerts}}
        <section class="card" id="offline-alerts" aria-labelledby="alerts-heading">
          <h2 id="alerts-heading">Offline alerts</h2>
          <p>When a kiosk has not reached the server for 30 minutes, from 2 hours before the event until it
            closes, the server tells you once, and again when the kiosk reports back.</p>
          {{#problem}}<p class="alert" role="alert" id="alerts-problem">{{problem}}</p>{{/problem}}
          {{#mailWarning}}<p class="alert" role="alert" id="alerts-mail-warning">{{mailWarning}}</p>{{/mailWarning}}
          <form method="post" action="/events/{{eventId}}/offline-alerts" class="narrow">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="alert-email">E-mail alerts to</label>
            <input id="alert-email" name="email" type="email" value="{{email}}" autocomplete="email"
              placeholder="ops@example.org">
            <label for="alert-webhook">Webhook URL</label>
            <input id="alert-webhook" name="webhookURL" type="url" value="{{webhookURL}}"
              placeholder="https://example.org/hooks/doors" aria-describedby="alert-webhook-help">
            <p class="muted" id="alert-webhook-help">A POST of JSON (<code>device.offline</code>,
              <code>device.back_online</code>) signed as Standard Webhooks. Leave both empty to turn alerts off.</p>
            <button type="submit" id="save-alerts">Save alerts</button>
          </form>
          {{#secret}}<p>Verify the webhooks with this secret: <code id="alert-secret">{{secret}}</code>. It is shown
            only now: copy it into the receiver.</p>{{/secret}}
          {{#secretEnding}}<p>The webhooks are signed with the secret ending in
            <code id="alert-secret-ending">{{secretEnding}}</code> (shown once, when it was made).</p>{{/secretEnding}}
          {{#hasRows}}
          <table class="list" id="alerts">
            <caption>Latest alerts</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Door</th><th scope="col">What</th>
              <th scope="col">To</th><th scope="col">State</th></tr></thead>
            <tbody>
            {{#rows}}
            <tr><td data-label="When">{{time}}</td><th scope="row">{{door}}</th><td data-label="What">{{what}}</td>
              <td data-label="To">{{to}}</td>
              <td data-label="State">{{#failed}}<span class="pill pill-offline">failed</span>{{/failed}}{{^failed}}{{state}}{{/failed}}{{#error}}
                <span class="muted">{{error}}</span>{{/error}}</td></tr>
            {{/rows}}
            </tbody>
          </table>
          {{/hasRows}}
        </section>
        {{/alerts}}
        {{/content}}
        {{/layout}}
        """
}
