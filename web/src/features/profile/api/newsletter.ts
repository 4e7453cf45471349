// Newsletter preferences: two adjustments in the user's db, "newsletter"
// (subscribed or not) and "newsletter-topics" (the chosen topics).

import { queryOptions } from '@tanstack/react-query';
import { find, postDoc, putDoc, type Doc } from '../../../lib/couch';
import { newId } from '../../../lib/ids';

export const NEWSLETTER_TOPICS = ['ticket_app', 'remote_diskette', 'text_notes', 'api', 'links', 'rss'] as const;
export type NewsletterTopic = (typeof NEWSLETTER_TOPICS)[number];

interface Adjustment extends Doc {
  key: string;
  value: unknown;
}

export interface NewsletterPrefs {
  subscribed: boolean;
  topics: NewsletterTopic[];
  docs: { newsletter?: Adjustment; topics?: Adjustment };
}

export async function fetchNewsletter(userDb: string): Promise<NewsletterPrefs> {
  const res = await find<Adjustment>(userDb, {
    selector: { klass: 'Adjustment', key: { $in: ['newsletter', 'newsletter-topics'] } },
    limit: 10,
  });
  const newsletter = res.docs.find((d) => d.key === 'newsletter');
  const topicsDoc = res.docs.find((d) => d.key === 'newsletter-topics');
  const topics = Array.isArray(topicsDoc?.value)
    ? (topicsDoc.value as unknown[]).filter((v): v is NewsletterTopic => (NEWSLETTER_TOPICS as readonly unknown[]).includes(v))
    : [];
  return {
    subscribed: newsletter ? newsletter.value === true || newsletter.value === 'true' : false,
    topics,
    docs: { ...(newsletter ? { newsletter } : {}), ...(topicsDoc ? { topics: topicsDoc } : {}) },
  };
}

export const newsletterQuery = (userDb: string) =>
  queryOptions({ queryKey: ['newsletter', userDb], queryFn: () => fetchNewsletter(userDb) });

async function upsert(userDb: string, existing: Adjustment | undefined, key: string, value: unknown) {
  if (existing) return putDoc(userDb, { ...existing, value });
  return postDoc(userDb, { _id: newId('adj'), klass: 'Adjustment', key, label: key, value });
}

/** saveNewsletter writes both adjustments (PUT with rev when they exist, else POST). */
export async function saveNewsletter(userDb: string, current: NewsletterPrefs, next: { subscribed: boolean; topics: NewsletterTopic[] }) {
  await upsert(userDb, current.docs.newsletter, 'newsletter', next.subscribed);
  await upsert(userDb, current.docs.topics, 'newsletter-topics', next.topics);
}
