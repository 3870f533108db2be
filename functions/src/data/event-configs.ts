import { defaultEventConfig, type EventRecognitionConfig, type EventRecognitionSettings } from "@dorsal/shared";
import type { Table } from "../ports/table";
import { keys } from "./keys";

const defaults = (eventId: number): EventRecognitionSettings => ({
  eventId,
  ocrConfidenceThreshold: defaultEventConfig.ocrConfidenceThreshold,
  maxDorsalsPerPhoto: defaultEventConfig.maxDorsalsPerPhoto,
  dorsalSizeThreshold: defaultEventConfig.dorsalSizeThreshold,
  enableMultiDorsalSupport: defaultEventConfig.enableMultiDorsalSupport,
  minDigits: defaultEventConfig.minDigits,
  maxDigits: defaultEventConfig.maxDigits,
  allowLeadingZeros: defaultEventConfig.allowLeadingZeros,
  bibPattern: defaultEventConfig.bibPattern,
  configurationVersion: 0,
  updatedAt: null,
});

export function createEventConfigRepository(table: Table) {
  return {
    /** The stored configuration over the spec's defaults; an event that never changed it has the defaults. */
    async get(eventId: number): Promise<EventRecognitionSettings> {
      const stored = await table.get<Partial<EventRecognitionSettings>>(keys.eventConfig(eventId));
      const merged = { ...defaults(eventId), ...stored, eventId };
      return {
        eventId,
        ocrConfidenceThreshold: merged.ocrConfidenceThreshold,
        maxDorsalsPerPhoto: merged.maxDorsalsPerPhoto,
        dorsalSizeThreshold: merged.dorsalSizeThreshold,
        enableMultiDorsalSupport: merged.enableMultiDorsalSupport,
        minDigits: merged.minDigits,
        maxDigits: merged.maxDigits,
        allowLeadingZeros: merged.allowLeadingZeros,
        bibPattern: merged.bibPattern,
        configurationVersion: merged.configurationVersion,
        updatedAt: merged.updatedAt,
      };
    },

    async update(eventId: number, changes: EventRecognitionConfig, now: Date): Promise<EventRecognitionSettings> {
      await table.update({
        key: keys.eventConfig(eventId),
        set: { type: "eventConfig", eventId, ...changes, updatedAt: now.toISOString() },
        add: { configurationVersion: 1 },
      });
      return this.get(eventId);
    },
  };
}
export type EventConfigRepository = ReturnType<typeof createEventConfigRepository>;
