// Gatsby's unit-testing guide: the loader Gatsby's runtime expects on window.
global.___loader = { enqueue: jest.fn() };
