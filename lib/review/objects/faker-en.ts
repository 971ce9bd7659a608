// The English-only Faker, as the published package ships it: a file of its own beside the bundles
// (dist/faker-en.cjs, built from this entry), required on the first generated object, so
// `import 'admission-harness'` does not parse its ~480 KB.
export { faker } from '@faker-js/faker/locale/en';
