import { i18n } from '../i18n';
import { translate, type Message, type MessageParams } from '../i18n/translate';

/**
 * The agent view's messages, kept apart until they are merged into
 * `i18n/en.ts` and `i18n/zh-cn.ts` (then `agentText` becomes `t`).
 */
export const agentEn = {
  'agent.title': 'Agent',
  'agent.inputLabel': 'Ask the agent',
  'agent.inputPlaceholder': 'e.g. Find my deadlock note and create three review tasks from it',
  'agent.run': 'Run',
  'agent.cancel': 'Cancel',
  'agent.pastRuns': 'Past runs',
  'agent.noRuns': 'No runs yet.',
  'agent.timeline': 'Timeline',
  'agent.emptyTimeline': 'Start a run or pick a past one to see its steps.',
  'agent.status.queued': 'Queued',
  'agent.status.running': 'Running',
  'agent.status.completed': 'Completed',
  'agent.status.failed': 'Failed',
  'agent.status.cancelled': 'Cancelled',
  'agent.event.RunStarted': 'Run started',
  'agent.event.ModelCall': 'Model call (step {step})',
  'agent.event.ModelCallFailed': 'Model call failed',
  'agent.event.ToolCall': 'Tool {name}',
  'agent.event.PermissionRequired': 'Permission needed: {permission}',
  'agent.event.PermissionResolved': 'Permission {permission}: {decision}',
  'agent.event.Citation': 'Source: {title}',
  'agent.event.RunCompleted': 'Answer',
  'agent.event.RunFailed': 'Run failed',
  'agent.event.RunCancelled': 'Run cancelled',
  'agent.arguments': 'Arguments',
  'agent.result': 'Result',
  'agent.thinking': 'Thinking',
  'agent.tokens': '{count} tokens',
  'agent.duration': '{ms} ms',
  'agent.permission.prompt': '{tool} wants to use the permission “{permission}”.',
  'agent.permission.allowOnce': 'Allow once',
  'agent.permission.always': 'Always allow',
  'agent.permission.deny': 'Deny',
  'agent.decision.allow_once': 'allowed once',
  'agent.decision.always_allow': 'always allowed',
  'agent.decision.deny': 'denied',
  'agent.grants': 'Always-allowed permissions',
  'agent.revoke': 'Revoke',
  'agent.memories': 'Agent memory',
  'agent.deleteMemory': 'Delete',
} as const satisfies Record<string, Message>;

export type AgentMessageKey = keyof typeof agentEn;

export const agentZhCN: Record<AgentMessageKey, Message> = {
  'agent.title': '智能体',
  'agent.inputLabel': '向智能体提问',
  'agent.inputPlaceholder': '例如：找到我的死锁笔记，并据此创建三个复习任务',
  'agent.run': '运行',
  'agent.cancel': '取消',
  'agent.pastRuns': '历史运行',
  'agent.noRuns': '还没有运行记录。',
  'agent.timeline': '时间线',
  'agent.emptyTimeline': '开始一次运行，或选择一条历史运行查看步骤。',
  'agent.status.queued': '排队中',
  'agent.status.running': '运行中',
  'agent.status.completed': '已完成',
  'agent.status.failed': '失败',
  'agent.status.cancelled': '已取消',
  'agent.event.RunStarted': '开始运行',
  'agent.event.ModelCall': '模型调用（第 {step} 步）',
  'agent.event.ModelCallFailed': '模型调用失败',
  'agent.event.ToolCall': '工具 {name}',
  'agent.event.PermissionRequired': '需要权限：{permission}',
  'agent.event.PermissionResolved': '权限 {permission}：{decision}',
  'agent.event.Citation': '来源：{title}',
  'agent.event.RunCompleted': '回答',
  'agent.event.RunFailed': '运行失败',
  'agent.event.RunCancelled': '运行已取消',
  'agent.arguments': '参数',
  'agent.result': '结果',
  'agent.thinking': '思考',
  'agent.tokens': '{count} 个 token',
  'agent.duration': '{ms} 毫秒',
  'agent.permission.prompt': '{tool} 请求使用权限“{permission}”。',
  'agent.permission.allowOnce': '允许一次',
  'agent.permission.always': '始终允许',
  'agent.permission.deny': '拒绝',
  'agent.decision.allow_once': '已允许一次',
  'agent.decision.always_allow': '已始终允许',
  'agent.decision.deny': '已拒绝',
  'agent.grants': '始终允许的权限',
  'agent.revoke': '撤销',
  'agent.memories': '智能体记忆',
  'agent.deleteMemory': '删除',
};

const dictionaries = { en: agentEn, 'zh-CN': agentZhCN } as const;

export function agentText(key: AgentMessageKey, params?: MessageParams): string {
  return translate<AgentMessageKey>(dictionaries[i18n.locale], agentEn, i18n.locale, key, params);
}
