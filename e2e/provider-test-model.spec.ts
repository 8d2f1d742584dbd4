import { expect, openApp, test } from './fixtures';

// Settings → Providers → Test checks the model the provider will be asked for, not only the connection.

test('a test with a model the provider does not list warns, and one click puts a listed model in the form', async ({
  page,
  scriptServer,
}) => {
  // An OpenAI-compatible server on 127.0.0.1 whose /models lists only `script-model`.
  const server = await scriptServer();
  await openApp(page);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  const section = page.getByTestId('provider-settings');
  await section.getByTestId('provider-add').click();
  await section.getByTestId('provider-preset').selectOption('custom');
  await section.getByTestId('provider-name').fill('Script box');
  await section.getByTestId('provider-base-url').fill(`${server.url}/v1`);
  const modelField = section.getByTestId('provider-model');
  await modelField.fill('script-modle');

  await section.getByTestId('provider-test').click();
  const result = section.getByTestId('provider-test-result');
  // The connection works: that is still said, and the model is the warning.
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('Connected');
  const warning = section.getByTestId('provider-test-model');
  await expect(warning).toContainText('Script box does not list the model “script-modle”');
  const choices = warning.getByTestId('provider-test-model-choice');
  await expect(choices).toHaveText(['script-model']);

  await choices.first().click();
  await expect(modelField).toHaveValue('script-model');
  await expect(modelField).toBeFocused();

  await section.getByTestId('provider-test').click();
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(warning).toHaveCount(0);
  // The test asked the server for its list each time, and nothing else.
  expect(server.bodies).toEqual([]);
});
