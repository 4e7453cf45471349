// Every language's merged strings, loaded at once: for tests only (the app
// loads one language lazily, lib/i18n.ts).

import en from './en.json';
import { mergeAll, type Tree } from './merge';
import ptBR from './pt-BR.json';

const featuresEn = import.meta.glob<Tree>('../features/*/locales/en.json', { eager: true, import: 'default' });
const featuresPt = import.meta.glob<Tree>('../features/*/locales/pt-BR.json', { eager: true, import: 'default' });

export const EN = mergeAll(en as Tree, featuresEn);
export const PT_BR = mergeAll(ptBR as Tree, featuresPt);
