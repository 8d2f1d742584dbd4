import { mount } from 'svelte';
import './ui/markdown/styles';
import './ui/app.css';
import App from './ui/App.svelte';
import { NOTE_CONTENT_CSS } from './themes/note-content';
import { applyFirstPaintLocale } from './ui/settings/settings.service';
import { browserScheduler } from './ui/after-paint';

const target = document.getElementById('app');
if (!target) throw new Error('NotesAgent: #app is missing from index.html');

// How notes look (code, tables, math, diagrams), from the theme tokens; shared
// with the theme preview and exports, so it lives with the themes.
const noteStyles = document.createElement('style');
noteStyles.textContent = NOTE_CONTENT_CSS;
document.head.append(noteStyles);

// The first paint already speaks the user's language (start-up itself runs after it):
// a language other than English fetches its table first, English is in the shell.
// Mounted in a task of its own, not in the one that evaluated the shell: the two together
// were one long task (see App's `built`).
void applyFirstPaintLocale().then(() => browserScheduler.next(() => mount(App, { target })));
