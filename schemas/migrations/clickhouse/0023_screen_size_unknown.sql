-- A hit without a screen reads as no screen size, not «0x0».
--
-- Only page views carry the screen (the counter's engagement, reading, block and event hits do
-- not), so every other hit of a visit had the size «0x0»: the screen sizes report showed a row
-- «0x0» of no visits and no page views but most of the period's visitors (5 748 of 5 957 on a
-- demo day). The alias now gives such a hit the empty value, which the screen reports leave out
-- (their definitions skip empty values, as the width and height ones skip 0). A metadata change:
-- no data is rewritten.

ALTER TABLE events MODIFY COLUMN screen_size String ALIAS if(screen_width = 0 AND screen_height = 0, '', concat(toString(screen_width), 'x', toString(screen_height)));
