// An item's enclosures (a podcast's episode): audio gets a player — the
// browser's own controls, so it plays, seeks and changes volume by
// keyboard — with its format, size and a download link; other files a
// link. The file comes from the publisher (preload="none": nothing is
// fetched until play); starting one episode pauses any other on the page.

import { Flex, Link, Text } from '@aws-amplify/ui-react';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { formatBytes } from '../../../lib/format';
import type { Enclosure } from '../api/types';
import './reader.css';

const AUDIO_EXTENSIONS = ['mp3', 'm4a', 'aac', 'oga', 'ogg', 'opus', 'wav', 'flac'];

const FORMATS: Record<string, string> = {
  'audio/mpeg': 'MP3',
  'audio/mp3': 'MP3',
  'audio/mp4': 'M4A',
  'audio/x-m4a': 'M4A',
  'audio/aac': 'AAC',
  'audio/ogg': 'Ogg',
  'audio/opus': 'Opus',
  'audio/wav': 'WAV',
  'audio/x-wav': 'WAV',
  'audio/flac': 'FLAC',
};

function extensionOf(url: string): string {
  try {
    const path = new URL(url).pathname;
    const dot = path.lastIndexOf('.');
    return dot >= 0 ? path.slice(dot + 1).toLowerCase() : '';
  } catch {
    return '';
  }
}

/** isAudio: an audio type, or no type and an audio file's extension. */
export function isAudio(e: Enclosure): boolean {
  if (e.type) return e.type.startsWith('audio/');
  return AUDIO_EXTENSIONS.includes(extensionOf(e.url));
}

/** formatOf names a file's format for people ("MP3"), "" when unknown. */
export function formatOf(e: Enclosure): string {
  if (e.type && FORMATS[e.type]) return FORMATS[e.type]!;
  const ext = extensionOf(e.url);
  if (ext) return ext.toUpperCase();
  return e.type ? e.type.slice(e.type.indexOf('/') + 1).toUpperCase() : '';
}

/** audioEnclosure is the first enclosure that plays as audio. */
export function audioEnclosure(list: Enclosure[] | undefined): Enclosure | undefined {
  return list?.find(isAudio);
}

/** pauseOthers keeps one episode playing at a time. */
function pauseOthers(playing: HTMLAudioElement) {
  document.querySelectorAll<HTMLAudioElement>('audio.reader-enclosure__audio').forEach((a) => {
    if (a !== playing && !a.paused) a.pause();
  });
}

/** toggleEpisode plays or pauses the first episode inside el (the "p" shortcut). */
export function toggleEpisode(el: HTMLElement | null | undefined): boolean {
  const audio = el?.querySelector<HTMLAudioElement>('audio.reader-enclosure__audio');
  if (!audio) return false;
  if (audio.paused) void audio.play().catch(() => undefined);
  else audio.pause();
  return true;
}

export const Enclosures = forwardRef<HTMLDivElement, { enclosures: Enclosure[] | undefined; title: string }>(function Enclosures({ enclosures, title }, ref) {
  const { t, i18n } = useTranslation();
  if (!enclosures?.length) return null;
  return (
    <Flex direction="column" gap="xs" ref={ref} data-testid="enclosures">
      {enclosures.map((e) => {
        const details = [formatOf(e), e.length ? formatBytes(e.length, i18n.language) : ''].filter(Boolean).join(' · ');
        if (!isAudio(e)) {
          return (
            <Text key={e.url} fontSize="small" data-testid="enclosure-file">
              <AppIcon name="file" />{' '}
              <Link href={e.url} isExternal rel="noopener noreferrer">
                {t('reader.attachment')}
              </Link>
              {details ? ` (${details})` : null}
            </Text>
          );
        }
        return (
          <figure key={e.url} className="reader-enclosure" data-testid="enclosure">
            <figcaption className="reader-enclosure__caption">
              <AppIcon name="reader" /> {t('reader.episode')}
              {details ? <span data-testid="enclosure-details"> · {details}</span> : null}
            </figcaption>
            <audio
              className="reader-enclosure__audio"
              controls
              preload="none"
              src={e.url}
              aria-label={t('reader.playEpisode', { title })}
              onPlay={(ev) => pauseOthers(ev.currentTarget)}
              data-testid="enclosure-audio"
            >
              {t('reader.audioUnsupported')}
            </audio>
            <Link href={e.url} isExternal rel="noopener noreferrer" fontSize="small" data-testid="enclosure-download">
              {t('reader.downloadEpisode')}
            </Link>
          </figure>
        );
      })}
    </Flex>
  );
});
