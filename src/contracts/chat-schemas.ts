import { z } from 'zod';
import { MAX_CHAT_IMAGES } from './chat';
import { pageQuerySchema } from './pages';
import { chatSendSchema, conversationIdSchema } from './provider-schemas';

const imageIdsSchema = z
  .array(z.string().min(1).max(100))
  .max(MAX_CHAT_IMAGES, `at most ${MAX_CHAT_IMAGES} images per message`);

/** `chatSendSchema` with the images of the message. */
export const chatSendWithImagesSchema = chatSendSchema
  .extend({ image_ids: imageIdsSchema.optional() })
  .strict();

export const listConversationsSchema = pageQuerySchema
  .extend({ query: z.string().trim().max(200).optional() })
  .strict();

export const updateConversationSchema = z
  .object({
    title: z.string().trim().min(1, 'the title is empty').max(200).optional(),
    system_prompt: z.string().trim().max(20_000).optional(),
  })
  .strict()
  .refine((input) => input.title !== undefined || input.system_prompt !== undefined, {
    message: 'give a title or a system prompt',
    path: ['title'],
  });

export const resendMessageSchema = z
  .object({
    conversation_id: conversationIdSchema,
    message_id: z.string().min(1, 'message_id is required').max(100),
    content: z.string().trim().min(1, 'the message is empty').max(100_000),
  })
  .strict();

export const attachChatImageSchema = z.strictObject({
  name: z.string().trim().min(1, 'the image needs a name').max(255),
  mime_type: z.string().trim().max(255).default(''),
  data: z.custom<Blob | Uint8Array>(
    (value) => value instanceof Blob || value instanceof Uint8Array,
    'expected the image bytes (a Blob or a Uint8Array)',
  ),
});
