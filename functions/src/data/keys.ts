/**
 * Every key of the single table, in one place (see docs/data-model.md). Numbers that must sort are
 * zero-padded so that string order is numeric order.
 */
const pad = (value: number | string, width: number) => String(value).padStart(width, "0");

/** Bibs are digit strings of up to 10 digits; padding sorts them numerically. */
export const bibSortKey = (bib: string) => pad(bib, 10);

/** Partition of the sparse index of failed photos (the dead-letter list), all events together. */
export const failedPhotosPartition = "PHOTOS#FAILED";
/** Sort-key prefix of one event's failed photos within that partition. */
export const failedPhotosOfEventPrefix = (eventId: number) => `${pad(eventId, 10)}#`;

/** Sort-key prefix of the photos' face descriptors within their event's partition. */
export const photoFacesPrefix = "FACES#";

/** Partition of the sparse index of ZIP batches still in progress. */
export const activeZipBatchesPartition = "ZIPBATCHES#ACTIVE";

/** Partitions listing photographer applications: all of them (gsi2), or those of one status (gsi1). */
export const applicationsPartition = "APPLICATIONS";
export const applicationsByStatusPartition = (status: string) => `APPLICATIONS#${status}`;

/** Partition of the events' deletions: one item each, running or recently done. */
export const eventDeletionsPartition = "DELETIONS";

/** Partition of the preflight runs' history and of the lock that keeps two from overlapping. */
export const preflightRunsPartition = "PREFLIGHT";

export const keys = {
  counter: (name: string) => ({ pk: `COUNTER#${name}`, sk: "COUNTER" }),

  user: (userId: string) => ({ pk: `USER#${userId}`, sk: "USER" }),
  /** Uniqueness guard: written first with a condition, since dynalite has no transactions. */
  userEmail: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: "EMAIL" }),
  usersIndex: (createdAt: string, userId: string) => ({ gsi1pk: "USERS", gsi1sk: `${createdAt}#${userId}` }),
  /**
   * A photographer's assignment to an event (spec §3 photographer_event_assignments), in the user's
   * partition: one query reads the account and all its events, which is what the upload check needs.
   */
  assignment: (userId: string, eventId: number) => ({
    pk: userPartition(userId),
    sk: `${assignmentSortPrefix}${pad(eventId, 10)}`,
  }),
  /** The same assignment seen from the event, so deleting an event finds its photographers. */
  photographersOfEventIndex: (eventId: number, userId: string) => ({
    gsi1pk: photographersOfEventPartition(eventId),
    gsi1sk: userId,
  }),

  event: (eventId: number) => ({ pk: `EVENT#${eventId}`, sk: "EVENT" }),
  /** Outside the event's partition, which the deletion sweeps: it outlives the event it reports on. */
  eventDeletion: (eventId: number) => ({ pk: eventDeletionsPartition, sk: pad(eventId, 10) }),
  eventsIndex: (eventId: number) => ({ gsi1pk: "EVENTS", gsi1sk: pad(eventId, 10) }),
  eventStats: (eventId: number) => ({ pk: `EVENT#${eventId}`, sk: "STATS" }),

  photo: (photoId: string) => ({ pk: `PHOTO#${photoId}`, sk: "PHOTO" }),
  /** Recognition's raw text of a processed photo, apart from the photo: only re-indexing reads it. */
  photoText: (photoId: string) => ({ pk: `PHOTO#${photoId}`, sk: "TEXT" }),
  photosOfEventIndex: (eventId: number, uploadedAt: string, photoId: string) => ({
    gsi1pk: `EVENT#${eventId}#PHOTOS`,
    gsi1sk: `${uploadedAt}#${photoId}`,
  }),

  /** One item per (event, bib, photo): a photo with several bibs appears under each. */
  bibPhoto: (eventId: number, bib: string, photoId: string) => ({
    pk: `EVENT#${eventId}#BIB#${bib}`,
    sk: `PHOTO#${photoId}`,
  }),
  bibPhotosPartition: (eventId: number, bib: string) => `EVENT#${eventId}#BIB#${bib}`,
  /** The same link seen from the photo, so the links of a photo can be reconciled with its bibs. */
  bibsOfPhotoIndex: (photoId: string, bib: string) => ({ gsi1pk: `PHOTO#${photoId}#BIBS`, gsi1sk: bib }),
  bibsOfPhotoPartition: (photoId: string) => `PHOTO#${photoId}#BIBS`,
  /** Sparse index: only processed photos with no bib carry it ("Sin dorsal"). */
  unbibbedPhotosIndex: (eventId: number, uploadedAt: string, photoId: string) => ({
    gsi2pk: `EVENT#${eventId}#NOBIB`,
    gsi2sk: `${uploadedAt}#${photoId}`,
  }),
  unbibbedPhotosPartition: (eventId: number) => `EVENT#${eventId}#NOBIB`,
  /**
   * Sparse index: only failed photos carry it (a photo is never failed and unbibbed at once, so it
   * shares gsi2 with "Sin dorsal"). Sorted by event, then failure time: one query lists every
   * event's failures, a sort-key prefix one event's.
   */
  failedPhotosIndex: (eventId: number, failedAt: string, photoId: string) => ({
    gsi2pk: failedPhotosPartition,
    gsi2sk: `${failedPhotosOfEventPrefix(eventId)}${failedAt}#${photoId}`,
  }),

  /**
   * Uniqueness guard for duplicates: the first photo of an event with these bytes (SHA-256, hex)
   * claims it with a conditional put and stores its photoId; a later copy finds it taken.
   */
  contentHash: (eventId: number, sha256: string) => ({ pk: `EVENT#${eventId}#HASH#${sha256}`, sk: "HASH" }),
  /** The same guards listed per event, so deleting the event finds them without a scan. */
  contentHashesOfEventIndex: (eventId: number, sha256: string) => ({
    gsi1pk: contentHashesOfEventPartition(eventId),
    gsi1sk: sha256,
  }),

  /** Photos an event finished processing in one UTC minute (`YYYY-MM-DDTHH:MM`), for its recent rate; expires. */
  eventProcessedMinute: (eventId: number, minute: string) => ({ pk: `EVENT#${eventId}`, sk: `RATE#${minute}` }),

  /**
   * A photo's face descriptors for selfie search (local engine only), in its event's partition: one
   * query loads the event's search index, and the event's deletion sweeps them with the rest.
   */
  photoFaces: (eventId: number, photoId: string) => ({ pk: `EVENT#${eventId}`, sk: `${photoFacesPrefix}${photoId}` }),
  /** How far selfie search's indexing of the event's existing photos has got (switched on with photos). */
  faceIndexing: (eventId: number) => ({ pk: `EVENT#${eventId}`, sk: "FACEINDEX" }),
  /** The event's configuration (spec §3 event_configs), absent until first changed. */
  eventConfig: (eventId: number) => ({ pk: `EVENT#${eventId}`, sk: "CONFIG" }),
  /** The event's pricing (spec §3 event_pricing), absent until an admin first saves it. */
  eventPricing: (eventId: number) => ({ pk: `EVENT#${eventId}`, sk: "PRICING" }),

  /** A photographer's application (spec §3 photographer_applications). */
  photographerApplication: (applicationId: string) => ({ pk: `APPLICATION#${applicationId}`, sk: "APPLICATION" }),
  /** Newest first per status (gsi1) and across statuses (gsi2); the gsi1 partition moves with the status. */
  applicationsByStatusIndex: (status: string, createdAt: string, applicationId: string) => ({
    gsi1pk: applicationsByStatusPartition(status),
    gsi1sk: `${createdAt}#${applicationId}`,
  }),
  applicationsIndex: (createdAt: string, applicationId: string) => ({
    gsi2pk: applicationsPartition,
    gsi2sk: `${createdAt}#${applicationId}`,
  }),

  /** A ZIP import and its counters (one item per batch). */
  zipBatch: (batchId: string) => ({ pk: `ZIPBATCH#${batchId}`, sk: "ZIPBATCH" }),
  /** An event's batches, whatever their state, so deleting the event finds them. */
  zipBatchesOfEventIndex: (eventId: number, createdAt: string, batchId: string) => ({
    gsi1pk: zipBatchesOfEventPartition(eventId),
    gsi1sk: `${createdAt}#${batchId}`,
  }),
  /** Sparse index: only batches not yet `completed` or `error` carry it, so a restart can resume them. */
  activeZipBatchesIndex: (createdAt: string, batchId: string) => ({
    gsi2pk: activeZipBatchesPartition,
    gsi2sk: `${createdAt}#${batchId}`,
  }),

  /** An admin's cloud-drive connection: its tokens, sealed (AES-GCM), in the account's partition. */
  driveConnection: (userId: string) => ({ pk: userPartition(userId), sk: "DRIVE" }),
  /**
   * A drive authorization under way, by the hash of its state (the state itself travels in URLs):
   * who asked and the PKCE verifier, sealed; taken once, expired by TTL.
   */
  driveAuthorization: (stateHash: string) => ({ pk: `DRIVEAUTH#${stateHash}`, sk: "DRIVEAUTH" }),

  /** An upload ("subida") of the upload screen: the files chosen together, with their uploader and event. */
  upload: (uploadId: string) => ({ pk: uploadPartition(uploadId), sk: "UPLOAD" }),
  /**
   * One file of an upload, in the upload's partition: the photo it became (a retried file points to
   * its latest photo) and that photo's state, so one query of the partition counts the upload.
   */
  uploadFile: (uploadId: string, fileHash: string) => ({
    pk: uploadPartition(uploadId),
    sk: `${uploadFileSortPrefix}${fileHash}`,
  }),
  /** A user's uploads, newest last (the history reads them backwards). */
  uploadsOfUserIndex: (userId: string, createdAt: string, uploadId: string) => ({
    gsi1pk: uploadsOfUserPartition(userId),
    gsi1sk: `${createdAt}#${uploadId}`,
  }),
  /** An event's uploads, so deleting the event finds them. */
  uploadsOfEventIndex: (eventId: number, createdAt: string, uploadId: string) => ({
    gsi2pk: uploadsOfEventPartition(eventId),
    gsi2sk: `${createdAt}#${uploadId}`,
  }),

  /**
   * The event's start list (spec §3 participants: names and emails): which import is current, with
   * its size. Recognition reads it for every photo, so it stays small; the import's bibs and rows
   * live in items of their own under the import's id, never changed once written.
   */
  startList: (eventId: number) => ({ pk: `EVENT#${eventId}`, sk: "STARTLIST" }),
  /** One import's bibs, all in one item, so a photo's recognition reads the list at once (and caches it). */
  startListBibs: (eventId: number, importId: string) => ({ pk: `EVENT#${eventId}`, sk: `STARTBIBS#${importId}` }),
  /** One row of an import, in bib order. */
  startListEntry: (eventId: number, importId: string, bib: string) => ({
    pk: `EVENT#${eventId}`,
    sk: `${startListEntriesPrefix(importId)}${bibSortKey(bib)}`,
  }),

  /**
   * An athlete's 'avísame' subscription to a bib, in the event's partition (deleted with it); the
   * email is keyed by its hash's first 32 hex digits, so no address sits in a key.
   */
  notifySubscription: (eventId: number, bib: string, emailKey: string) => ({
    pk: `EVENT#${eventId}`,
    sk: `${notifySubscriptionsPrefix(bib)}${emailKey}`,
  }),
  /** Sparse index: only subscriptions owed a message carry it, by when it may go. */
  dueNotificationIndex: (sendAfter: string, eventId: number, bib: string, emailKey: string) => ({
    gsi2pk: dueNotificationsPartition,
    gsi2sk: `${sendAfter}#${eventId}#${bib}#${emailKey}`,
  }),

  /** The participant (bib) of an event with its photo count; the event partition lists them in bib order. */
  participant: (eventId: number, bib: string) => ({ pk: `EVENT#${eventId}`, sk: `BIB#${bibSortKey(bib)}` }),
  /**
   * Sparse index of the event's participants with photos, by photo count: read backwards, the first
   * items are the bibs with the most photos (ties by the lower bib first, hence its complement).
   */
  participantRankIndex: (eventId: number, bib: string, photoCount: number) => ({
    gsi1pk: participantRankPartition(eventId),
    gsi1sk: `${pad(photoCount, 10)}#${pad(9_999_999_999 - Number(bib), 10)}#${bib}`,
  }),

  /** Where an event's counter recount has got to, so a stopped one continues rather than restarts. */
  eventRecount: (eventId: number) => ({ pk: `EVENT#${eventId}`, sk: "RECOUNT" }),

  /**
   * Downloads of one photo under one grant (a sale's `SALE#…` or a code's `CODE#…` partition): one
   * counter per photo, so the cap holds per photo and parallel requests cannot pass it.
   */
  downloadCount: (grantPartition: string, photoId: string) => ({ pk: grantPartition, sk: `DL#${photoId}` }),

  /** A sale (spec §3 sales); its partition also holds the per-photo download counters of the sale. */
  sale: (saleId: string) => ({ pk: `SALE#${saleId}`, sk: "SALE" }),
  /** An event's sales, oldest first (admin export). */
  salesOfEventIndex: (eventId: number, createdAt: string, saleId: string) => ({
    gsi1pk: salesOfEventPartition(eventId),
    gsi1sk: `${createdAt}#${saleId}`,
  }),
  /** Sparse index: a sale carries it only while `pending`, so reconciliation finds the unsettled ones. */
  pendingSalesIndex: (createdAt: string, saleId: string) => ({
    gsi2pk: pendingSalesPartition,
    gsi2sk: `${createdAt}#${saleId}`,
  }),
  /** A paid sale moves to its month's list (Colombian time), by payment time: monthly figures after a reset. */
  paidSalesIndex: (month: string, paidAt: string, saleId: string) => ({
    gsi2pk: paidSalesPartition(month),
    gsi2sk: `${paidAt}#${saleId}`,
  }),
  /** Download-token guard: the SHA-256 (hex) of the token, holding its `saleId`; the token itself is never stored. */
  downloadToken: (tokenSha256: string) => ({ pk: `DLTOKEN#${tokenSha256}`, sk: "DLTOKEN" }),
  /**
   * Uniqueness guard of a provider transaction: the first sale it settles claims it with a
   * conditional put and stores its `saleId`, so one payment never settles a second sale.
   */
  paymentTransaction: (transactionId: string) => ({ pk: `PAYTX#${transactionId}`, sk: "PAYTX" }),
  /** Paid sales of one month (`YYYY-MM`, Colombian time): `count` and `revenue` in whole COP. */
  salesMonth: (month: string) => ({ pk: `SALES#${month}`, sk: "SALES" }),

  /** A download code (spec §3 download_codes): the code itself, uppercase, is the key, so it is unique. */
  downloadCode: (code: string) => ({ pk: `CODE#${code}`, sk: "CODE" }),
  /** An event's codes, newest last (the admin's list reads them backwards). */
  codesOfEventIndex: (eventId: number, createdAt: string, code: string) => ({
    gsi1pk: codesOfEventPartition(eventId),
    gsi1sk: `${createdAt}#${code}`,
  }),

  /**
   * What was sold or sent to one buyer email (trimmed, lowercase), for 'Tu cuenta': a sale at its
   * creation, a code when an admin emails it. Only the ids; the sale and code items stay the truth.
   */
  buyerSale: (email: string, createdAt: string, saleId: string) => ({
    pk: buyerPartition(email),
    sk: `${buyerSalePrefix}${createdAt}#${saleId}`,
  }),
  buyerCode: (email: string, createdAt: string, code: string) => ({
    pk: buyerPartition(email),
    sk: `${buyerCodePrefix}${createdAt}#${code}`,
  }),

  /** The one system_settings item (spec §3): stored values over the defaults, and when sales were last reset. */
  systemSettings: () => ({ pk: "SETTINGS", sk: "SYSTEM" }),
  /** Preflight runs share one partition, newest last by id (ids start with their start time). */
  preflightRun: (runId: string) => ({ pk: preflightRunsPartition, sk: `RUN#${runId}` }),
  /** Who holds the right to run a preflight now: runs must not overlap (each makes a probe event). */
  preflightLock: () => ({ pk: preflightRunsPartition, sk: "LOCK" }),
  /**
   * Attempts at a secret of one subject (an email, an event's bib) by one client (an address, a
   * trusted device, `*` for all together) in one fixed window (numbered from the epoch); expires.
   */
  loginAttempts: (subject: string, client: string, window: number) => ({
    pk: loginPartition(subject),
    sk: `WINDOW#${window}#${client}`,
  }),
  /** A client locked out of a subject after too many failures, until `lockedUntil`; expires. */
  loginLock: (subject: string, client: string) => ({ pk: loginPartition(subject), sk: `LOCK#${client}` }),
} as const;

/** Every attempt counter and lock of one subject (emails in any case are one subject). */
export function loginPartition(subject: string): string {
  return `LOGIN#${subject.toLowerCase()}`;
}

/** Sort-key prefix of one import's rows (see keys.startListEntry); without the id, every import's. */
export const startListEntriesPrefix = (importId = "") => (importId ? `STARTLIST#${importId}#` : "STARTLIST#");
/** Sort-key prefix of a bib's 'avísame' subscriptions; without a bib, every one of the event. */
export const notifySubscriptionsPrefix = (bib = "") => (bib ? `NOTIFY#${bib}#` : "NOTIFY#");
/** Partition of the sparse index of subscriptions owed a message. */
export const dueNotificationsPartition = "NOTIFY#DUE";
/** Sort-key prefix of every import's bibs item. */
export const startListBibsPrefix = "STARTBIBS#";

/** One buyer's sales and codes; emails differing only in case or outer spaces are one buyer. */
export const buyerPartition = (email: string) => `BUYER#${email.trim().toLowerCase()}`;
export const buyerSalePrefix = "SALE#";
export const buyerCodePrefix = "CODE#";

export const usersIndexPartition = "USERS";
export const userPartition = (userId: string) => `USER#${userId}`;
/** Sort-key prefix of a user's assignments; they sort before the `USER` item of the same partition. */
export const assignmentSortPrefix = "ASSIGN#";
export const photographersOfEventPartition = (eventId: number) => `EVENT#${eventId}#PHOTOGRAPHERS`;
export const eventsIndexPartition = "EVENTS";
export const participantRankPartition = (eventId: number) => `EVENT#${eventId}#BIBRANK`;
export const photosOfEventPartition = (eventId: number) => `EVENT#${eventId}#PHOTOS`;
export const contentHashesOfEventPartition = (eventId: number) => `EVENT#${eventId}#HASHES`;
export const zipBatchesOfEventPartition = (eventId: number) => `EVENT#${eventId}#ZIPBATCHES`;
export const salesOfEventPartition = (eventId: number) => `EVENT#${eventId}#SALES`;
export const codesOfEventPartition = (eventId: number) => `EVENT#${eventId}#CODES`;
export const pendingSalesPartition = "SALES#PENDING";
export const uploadPartition = (uploadId: string) => `UPLOAD#${uploadId}`;
export const uploadFileSortPrefix = "FILE#";
export const uploadsOfUserPartition = (userId: string) => `USER#${userId}#UPLOADS`;
export const uploadsOfEventPartition = (eventId: number) => `EVENT#${eventId}#UPLOADS`;
export const paidSalesPartition = (month: string) => `SALES#PAID#${month}`;
