/**
 * The default scenario's labels as GitLab presents them (`LabelBasic`), and the constants the label
 * contract suites share.
 */

/** The frozen clock of the default scenario. */
export const NOW = '2021-04-01T12:00:00.000Z'

/**
 * LabelBasic of the default scenario's labels. A label without a description renders
 * `description_html: ""` (gitlab-behaviour.md §12.1; issue 17 item 2).
 */
export const BASIC = {
  100: { id: 100, name: 'bug', color: '#d9534f', description: 'Something is broken', description_html: 'Something is broken', text_color: '#FFFFFF' },
  101: { id: 101, name: 'feature', color: '#428bca', description: 'New functionality', description_html: 'New functionality', text_color: '#FFFFFF' },
  102: { id: 102, name: 'needs review', color: '#FFA500', description: null, description_html: '', text_color: '#FFFFFF' },
  103: { id: 103, name: 'backend', color: '#5cb85c', description: null, description_html: '', text_color: '#FFFFFF' },
  110: { id: 110, name: 'frontend', color: '#FF0000', description: null, description_html: '', text_color: '#FFFFFF' },
  111: { id: 111, name: 'docs', color: '#F0AD4E', description: null, description_html: '', text_color: '#FFFFFF' },
  112: { id: 112, name: 'good first issue', color: '#6699cc', description: null, description_html: '', text_color: '#FFFFFF' },
  113: { id: 113, name: 'performance', color: '#A8D695', description: null, description_html: '', text_color: '#333333' },
  114: { id: 114, name: 'chore', color: '#cccccc', description: null, description_html: '', text_color: '#333333' },
} as const
export type LabelId = keyof typeof BASIC
