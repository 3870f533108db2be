import { notifyConsentVersion, notifyMessages } from "@dorsal/shared/notifications";
import { createEventRequest } from "@dorsal/shared/staff-requests";
import { describe, expect, it } from "vitest";
import { createManualClock, createSequentialIds } from "../adapters/memory/clock";
import { createMemoryMailer } from "../adapters/memory/mail";
import { memoryContainer } from "../testing/memory-container";
import { createEvent } from "./events";
import {
  confirmNotification,
  emailKeyOf,
  noticeBibPhoto,
  requestNotification,
  sendDueNotifications,
  subscribeStartList,
  unsubscribeNotification,
} from "./notifications";

const minutes = (count: number) => count * 60_000;
const client = { ip: "203.0.113.7" };

/** Prepare: an event, a clock moved by hand, mail kept in memory; photos linked as record does. */
async function world() {
  const clock = createManualClock(new Date("2026-12-06T12:00:00Z"));
  const mail = createMemoryMailer();
  const { deps } = await memoryContainer({ clock, ids: createSequentialIds(), mail });
  const race = await createEvent(deps, createEventRequest.parse({ name: "Media Maratón de Cali", date: "2026-12-06" }));
  let photos = 0;
  const photoOf = async (bib: string) => {
    if (await deps.bibLinks.linkBib(race.id, bib, `foto-${++photos}`, clock.now().toISOString()))
      await noticeBibPhoto(deps, race.id, bib);
  };
  const noticesTo = (address: string) =>
    mail.sent.filter((message) => message.to === address && message.subject.startsWith("Ya están tus fotos"));
  const subscription = (bib: string, email: string) => deps.notifications.get(race.id, bib, emailKeyOf(email));
  const tokenIn = (text: string, action: "confirmar" | "baja") =>
    new RegExp(`/avisos/${action}#(\\S+)`).exec(text)?.[1] ?? "";
  return { deps, clock, mail, race, photoOf, noticesTo, subscription, tokenIn };
}

describe("avísame cuando estén mis fotos", () => {
  it("sends one message once the bib's photos stop arriving, then at most one more a day", async () => {
    const { deps, clock, race, photoOf, noticesTo } = await world();
    await subscribeStartList(deps, race.id, [{ bib: "101", email: "Ana@Correo.co" }]);

    await photoOf("101");
    clock.advance(minutes(5));
    await photoOf("101");
    clock.advance(minutes(6));
    const duringQuiet = await sendDueNotifications(deps);
    clock.advance(minutes(4));
    const afterQuiet = await sendDueNotifications(deps);
    const again = await sendDueNotifications(deps);

    expect(duringQuiet).toEqual({ sent: 0, failed: 0 });
    expect(afterQuiet).toEqual({ sent: 1, failed: 0 });
    expect(again).toEqual({ sent: 0, failed: 0 });
    const [first] = noticesTo("ana@correo.co");
    expect(first?.text).toContain("Ya hay 2 fotos del dorsal 101 en Media Maratón de Cali");
    expect(first?.text).toContain(`/search?eventId=${race.id}&dorsal=101`);

    // A photo an hour later waits for the day to pass since the first message.
    clock.advance(minutes(60));
    await photoOf("101");
    clock.advance(minutes(11));
    expect(await sendDueNotifications(deps)).toEqual({ sent: 0, failed: 0 });
    clock.advance(minutes(24 * 60));
    expect(await sendDueNotifications(deps)).toEqual({ sent: 1, failed: 0 });
    expect(noticesTo("ana@correo.co").map((message) => message.text.match(/Ya hay (\d+) fotos/)?.[1])).toEqual([
      "2",
      "3",
    ]);
  });

  it("sends an unconfirmed request nothing but its link, which expires; a confirmed one its message", async () => {
    const { deps, clock, mail, race, photoOf, noticesTo, subscription, tokenIn } = await world();
    const ask = (email: string) =>
      requestNotification(deps, { eventId: race.id, bib: "202", email, consent: true }, client);
    const answers = [await ask("luis@correo.co"), await ask("nadie@correo.co")];

    await confirmNotification(deps, tokenIn(mail.sent[0]?.text ?? "", "confirmar"));
    await photoOf("202");
    clock.advance(minutes(10));
    await sendDueNotifications(deps);
    clock.advance(minutes(48 * 60));
    const late = confirmNotification(deps, tokenIn(mail.sent[1]?.text ?? "", "confirmar"));

    expect(answers[0]).toEqual(answers[1]);
    expect(noticesTo("luis@correo.co")).toHaveLength(1);
    expect(noticesTo("nadie@correo.co")).toHaveLength(0);
    expect(await subscription("202", "luis@correo.co")).toMatchObject({
      status: "active",
      source: "search",
      consentVersion: notifyConsentVersion,
      requestedAt: "2026-12-06T12:00:00.000Z",
      confirmedAt: "2026-12-06T12:00:00.000Z",
    });
    await expect(late).rejects.toMatchObject({ kind: "invalid", message: notifyMessages.linkInvalid });
  });

  it("replaces the start list's subscriptions on each import, never bringing back one that unsubscribed", async () => {
    const { deps, clock, race, photoOf, noticesTo, subscription, tokenIn } = await world();
    await subscribeStartList(deps, race.id, [
      { bib: "101", email: "ana@correo.co" },
      { bib: "102", email: "beto@correo.co" },
      { bib: "103", email: null },
    ]);
    await photoOf("101");
    clock.advance(minutes(10));
    await sendDueNotifications(deps);
    await unsubscribeNotification(deps, tokenIn(noticesTo("ana@correo.co")[0]?.text ?? "", "baja"));

    await subscribeStartList(deps, race.id, [
      { bib: "101", email: "ana@correo.co" },
      { bib: "104", email: "caro@correo.co" },
    ]);
    await photoOf("101");
    clock.advance(minutes(10));
    const sent = await sendDueNotifications(deps);

    expect(sent).toEqual({ sent: 0, failed: 0 });
    expect(await subscription("101", "ana@correo.co")).toMatchObject({ status: "unsubscribed", source: "startList" });
    expect(await subscription("102", "beto@correo.co")).toBeUndefined();
    expect(await subscription("104", "caro@correo.co")).toMatchObject({
      status: "active",
      source: "startList",
      consentVersion: null,
    });
  });

  it("go with their event: its deletion's sweep of the event's partition takes them, owed ones included", async () => {
    const { deps, clock, race, photoOf, subscription } = await world();
    await subscribeStartList(deps, race.id, [{ bib: "101", email: "ana@correo.co" }]);
    await photoOf("101");
    const owed = () => deps.notifications.due(new Date(clock.now().getTime() + minutes(10)).toISOString(), 10);
    const before = await owed();

    await deps.eventDeletion.sweepEventPartition(race.id);

    expect(before).toHaveLength(1);
    expect(await subscription("101", "ana@correo.co")).toBeUndefined();
    expect(await owed()).toEqual([]);
  });
});
