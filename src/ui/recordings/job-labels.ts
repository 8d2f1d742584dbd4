/** What a job and its model are called on the page. */

/**
 * The core's catalog labels its Whisper models in English ("Whisper tiny (multilingual)").
 * The name is the same in every language; the description beside it is the page's to
 * translate, so it is rebuilt from the model id and the profile's facts.
 */
export function whisperName(modelId: string): string | null {
  const match = /(?:^|\/)whisper-(tiny|base|small|medium|large(?:-v\d)?(?:-turbo)?)(?:\.en)?$/i.exec(modelId);
  return match ? `Whisper ${match[1]!.toLowerCase()}` : null;
}

/** The name a job is listed under: the file picked for it, else its stored audio's name, else its id. */
export function jobAudioName(
  job: { attachment_id: string; metadata?: Record<string, unknown> },
  attachmentNames: Readonly<Record<string, string>>,
): string {
  const uploaded = job.metadata?.audio_name;
  if (typeof uploaded === 'string' && uploaded.trim() !== '') return uploaded;
  return attachmentNames[job.attachment_id] ?? job.attachment_id;
}

/** The title a transcript note gets when none is typed: the file name without its extension (as the core names it). */
export function titleFromAudioName(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
}
