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
