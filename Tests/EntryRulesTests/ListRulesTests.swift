import EntryRules
import Foundation
import Testing

/// The rules of a check-in list, decided as the door and the server both decide them.
@Suite struct ListRulesTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-12-02 18:00 in Berlin (17:00 UTC).
    static let evening = Date(timeIntervalSince1970: 1_796_230_800)

    static func at(_ minutes: Double, after instant: Date = evening) -> Date {
        instant.addingTimeInterval(minutes * 60)
    }

    @Test func anEventsFirstListAdmitsEveryTypeOnceAndSaysAlreadyInsideAfter() {
        let rules = ListRules.everyone
        #expect(
            rules.decide(.entry, ticketType: "General", history: [], now: Self.evening, timeZone: Self.berlin) == .admit
        )
        let entered = [Passage(.entry, at: Self.evening)]
        #expect(
            rules.decide(.entry, ticketType: "General", history: entered, now: Self.at(5), timeZone: Self.berlin)
                == .alreadyInside(since: Self.evening))
    }

    @Test func aListOfTicketTypesRefusesTheOthersByName() {
        let lounge = ListRules(ticketTypes: ["VIP", "Artist"])
        #expect(
            lounge.decide(.entry, ticketType: "VIP", history: [], now: Self.evening, timeZone: Self.berlin) == .admit)
        #expect(
            lounge.decide(
                .entry, ticketType: "General admission", history: [], now: Self.evening, timeZone: Self.berlin)
                == .refused(.ticketType, reason: "not valid for this door: General admission"))
    }

    @Test func anExitIsAlwaysLetThroughAndSaysWhetherTheGuestWasInside() {
        let rules = ListRules(ticketTypes: ["VIP"], allowsReentry: false)
        let entered = [Passage(.entry, at: Self.evening)]
        #expect(
            rules.decide(.exit, ticketType: "VIP", history: entered, now: Self.at(30), timeZone: Self.berlin)
                == .exit(wasInside: true))
        #expect(
            rules.decide(.exit, ticketType: "General", history: [], now: Self.at(30), timeZone: Self.berlin)
                == .exit(wasInside: false))
    }

    @Test func reEntryAfterAnExitIsAllowedOrRefusedByTheList() {
        let outAndBack = [Passage(.entry, at: Self.evening), Passage(.exit, at: Self.at(20))]
        #expect(
            ListRules(allowsReentry: true).decide(
                .entry, ticketType: "General", history: outAndBack, now: Self.at(40), timeZone: Self.berlin) == .admit)
        #expect(
            ListRules(allowsReentry: false).decide(
                .entry, ticketType: "General", history: outAndBack, now: Self.at(40), timeZone: Self.berlin)
                == .refused(.noReentry, reason: "no re-entry: left at 18:20"))
    }

    @Test func theWindowSaysWhenTheListOpensOrClosedInTheEventsTimeZone() {
        let rules = ListRules(opensAt: Self.evening, closesAt: Self.at(6 * 60))
        #expect(
            rules.decide(.entry, ticketType: "VIP", history: [], now: Self.at(-90), timeZone: Self.berlin)
                == .refused(.window, reason: "opens at 18:00"))
        // The day before, in Berlin.
        #expect(
            rules.decide(.entry, ticketType: "VIP", history: [], now: Self.at(-24 * 60), timeZone: Self.berlin)
                == .refused(.window, reason: "opens on 2026-12-02 at 18:00"))
        #expect(rules.decide(.entry, ticketType: "VIP", history: [], now: Self.at(1), timeZone: Self.berlin) == .admit)
        // Midnight passed in Berlin: the closing time is on the day before.
        #expect(
            rules.decide(.entry, ticketType: "VIP", history: [], now: Self.at(6 * 60), timeZone: Self.berlin)
                == .refused(.window, reason: "closed at 00:00"))
    }

    @Test func aGuestInsideIsAlreadyInsideWhateverElseTheRulesSay() {
        let rules = ListRules(closesAt: Self.at(10), maximumEntries: 1)
        let entered = [Passage(.entry, at: Self.evening)]
        #expect(
            rules.decide(.entry, ticketType: "General", history: entered, now: Self.at(60), timeZone: Self.berlin)
                == .alreadyInside(since: Self.evening))
    }

    @Test func entriesInAllAreCounted() {
        let twice = [
            Passage(.entry, at: Self.evening), Passage(.exit, at: Self.at(10)), Passage(.entry, at: Self.at(20)),
            Passage(.exit, at: Self.at(30)),
        ]
        #expect(
            ListRules(maximumEntries: 2).decide(
                .entry, ticketType: "General", history: twice, now: Self.at(40), timeZone: Self.berlin)
                == .refused(.maximumEntries, reason: "at most 2 entries"))
        #expect(
            ListRules(maximumEntries: 3).decide(
                .entry, ticketType: "General", history: twice, now: Self.at(40), timeZone: Self.berlin) == .admit)
    }

    @Test func oneEntryPerDayCountsTheDaysOfTheEventsTimeZone() {
        let dayPass = ListRules(maximumEntriesPerDay: 1)
        // 23:30 in Berlin (22:30 UTC), out at 23:50.
        let late = Self.at(5 * 60 + 30)
        let history = [Passage(.entry, at: late), Passage(.exit, at: Self.at(20, after: late))]
        // 23:55 in Berlin: the same day.
        #expect(
            dayPass.decide(
                .entry, ticketType: "Day", history: history, now: Self.at(25, after: late), timeZone: Self.berlin)
                == .refused(.maximumPerDay, reason: "one entry per day: entered at 23:30"))
        // 00:10 in Berlin is the next day (in UTC, 23:10 would still be the same one).
        #expect(
            dayPass.decide(
                .entry, ticketType: "Day", history: history, now: Self.at(40, after: late), timeZone: Self.berlin)
                == .admit)
        #expect(
            dayPass.decide(
                .entry, ticketType: "Day", history: history, now: Self.at(40, after: late),
                timeZone: TimeZone(identifier: "UTC")!)
                == .refused(.maximumPerDay, reason: "one entry per day: entered at 22:30"))
    }

    @Test func minutesSinceTheLastEntryAreWaitedFor() {
        let rules = ListRules(minimumMinutesBetweenEntries: 60)
        let history = [Passage(.entry, at: Self.evening), Passage(.exit, at: Self.at(5))]
        #expect(
            rules.decide(.entry, ticketType: "General", history: history, now: Self.at(30), timeZone: Self.berlin)
                == .refused(.minimumInterval, reason: "entered at 18:00; again from 19:00"))
        #expect(
            rules.decide(.entry, ticketType: "General", history: history, now: Self.at(60), timeZone: Self.berlin)
                == .admit)
    }

    @Test func theHistorysOrderDoesNotMatter() {
        let history = [Passage(.exit, at: Self.at(10)), Passage(.entry, at: Self.evening)]
        #expect(
            ListRules(allowsReentry: false).decide(
                .entry, ticketType: "General", history: history, now: Self.at(20), timeZone: Self.berlin)
                == .refused(.noReentry, reason: "no re-entry: left at 18:10"))
    }

    @Test func theRulesNamesAreTheContractsNames() {
        #expect(
            Rule.allCases.map(\.rawValue) == [
                "ticket_type", "window", "max_entries", "max_per_day", "min_interval", "no_reentry",
            ])
    }
}
