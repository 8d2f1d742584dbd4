import { mount } from 'svelte';
import './ui/markdown/styles';
import './ui/app.css';
import App from './ui/App.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('NotesAgent: #app is missing from index.html');

mount(App, { target });
